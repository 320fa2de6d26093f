public import Postgres

extension AppStore {
    /// The id of the app called `name`, nil when there is none: the one look-up of an app by its
    /// name, for the commands, the admin API, the nightly job, keys, tokens and privacy.
    /// - Parameters:
    ///   - lockingRow: takes the app's row lock (`FOR UPDATE`) in the caller's transaction, so the
    ///     app is not deleted, and its keys not rotated, until that transaction ends.
    ///   - connection: runs on it, inside whatever transaction it is in.
    public static func appID(named name: String, lockingRow: Bool = false,
                             on connection: PostgresConnection) throws(StorageError) -> Int32? {
        try StorageError.mapping {
            let rows = lockingRow
                ? try connection.query("SELECT app_id FROM apps WHERE name = \(name) FOR UPDATE")
                : try connection.query("SELECT app_id FROM apps WHERE name = \(name)")
            return try rows.first.map { try $0.decode(Int32.self, column: "app_id") }
        }
    }

    /// Every app's name by its id, on the caller's connection (what a command prints beside the
    /// per-app results of work done for all apps).
    public static func namesByID(on connection: PostgresConnection) throws(StorageError) -> [Int32: String] {
        try StorageError.mapping {
            var names: [Int32: String] = [:]
            for row in try connection.query("SELECT app_id, name FROM apps") {
                names[try row.decode(column: "app_id")] = try row.decode(column: "name")
            }
            return names
        }
    }
}
