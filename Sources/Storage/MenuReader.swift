public import Postgres

/// Reads what `GET /v1/menus` serves: for each element type of an app, its layout with the highest
/// `layout_version`.
public final class MenuReader: Sendable {
    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// The current menus of `appID`; only `elementType`'s when given.
    public func currentMenus(appID: Int32, elementType: String? = nil) throws(StorageError) -> ServedMenus {
        try StorageError.mapping {
            try pool.withConnection { connection in
                let filter: PostgresQuery = elementType.map { "AND element_type = \($0)" } ?? ""
                let menus = try connection.query("""
                    SELECT DISTINCT ON (element_type) element_type, layout_version, layout::text, edit_menu, preview,
                           menu_version
                    FROM layouts WHERE app_id = \(appID) \(filter)
                    ORDER BY element_type, layout_version DESC
                    """).map { row in
                    ServedMenus.Menu(elementType: try row.decode(at: 0), layoutVersion: try row.decode(at: 1),
                                     layoutJSON: try row.decode(at: 2), editMenu: try row.decode(at: 3),
                                     preview: try row.decode(at: 4), menuVersion: try row.decode(at: 5))
                }
                let commands = try connection.query("""
                    SELECT command, title, destructive, pinned, keep, category
                    FROM menu_commands WHERE app_id = \(appID) ORDER BY command
                    """).map { row in
                    ServedMenus.Command(command: try row.decode(at: 0), title: try row.decode(at: 1),
                                        destructive: try row.decode(at: 2), pinned: try row.decode(at: 3),
                                        keep: try row.decode(at: 4), category: try row.decode(at: 5))
                }
                let version = try connection.query("""
                    SELECT version FROM manifests WHERE app_id = \(appID) ORDER BY manifest_id DESC LIMIT 1
                    """).first.map { try $0.decode(String.self, at: 0) } ?? ""
                return ServedMenus(manifestVersion: version, menus: menus, commands: commands)
            }
        }
    }
}
