public import Postgres

/// Reads what `GET /v1/menus` serves: for each element type of an app, its layout with the highest
/// `layout_version`, and its running rollout while that layout is the one the rollout was made from.
public final class MenuReader: Sendable {
    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// The current menus of `appID`; only `elementType`'s when given.
    /// - Throws: `StorageError.notFound` when the app no longer exists (deleted since its key was
    ///   looked up), or another `StorageError`.
    public func currentMenus(appID: Int32, elementType: String? = nil) throws(StorageError) -> ServedMenus {
        try StorageError.mapping {
            try pool.withConnection { connection in
                let filter: PostgresQuery = elementType.map { "AND element_type = \($0)" } ?? ""
                var rollouts: [String: (base: Int32, rollout: ServedMenus.Rollout)] = [:]
                for row in try connection.query("""
                    SELECT element_type, base_layout_version, rollout_id, salt, share, layout::text AS layout, menu_version
                    FROM rollouts WHERE app_id = \(appID) AND status = 'running' \(filter)
                    """) {
                    rollouts[try row.decode(column: "element_type")] = (
                        try row.decode(column: "base_layout_version"),
                        ServedMenus.Rollout(id: try row.decode(column: "rollout_id"), salt: try row.decode(column: "salt"),
                                            share: try row.decode(column: "share"), layoutJSON: try row.decode(column: "layout"),
                                            menuVersion: try row.decode(column: "menu_version")))
                }
                let menus = try connection.query("""
                    SELECT DISTINCT ON (element_type) element_type, layout_version, layout::text, edit_menu, preview,
                           menu_version
                    FROM layouts WHERE app_id = \(appID) \(filter)
                    ORDER BY element_type, layout_version DESC
                    """).map { row in
                    let elementType: String = try row.decode(column: "element_type")
                    let version: Int32 = try row.decode(column: "layout_version")
                    let rollout = rollouts[elementType].flatMap { $0.base == version ? $0.rollout : nil }
                    return ServedMenus.Menu(elementType: elementType, layoutVersion: version,
                                            layoutJSON: try row.decode(column: "layout"), editMenu: try row.decode(column: "edit_menu"),
                                            preview: try row.decode(column: "preview"),
                                            menuVersion: try row.decode(column: "menu_version"), rollout: rollout)
                }
                let commands = try connection.query("""
                    SELECT command, title, destructive, pinned, keep, category
                    FROM menu_commands WHERE app_id = \(appID) ORDER BY command
                    """).map { row in
                    ServedMenus.Command(command: try row.decode(column: "command"), title: try row.decode(column: "title"),
                                        destructive: try row.decode(column: "destructive"), pinned: try row.decode(column: "pinned"),
                                        keep: try row.decode(column: "keep"), category: try row.decode(column: "category"))
                }
                let version = try connection.query("""
                    SELECT version FROM manifests WHERE app_id = \(appID) ORDER BY manifest_id DESC LIMIT 1
                    """).first.map { try $0.decode(String.self, column: "version") } ?? ""

                // Last, so a menu read after `apps delete` returned finds no app even when the
                // key's grant was still cached: nothing read above is served then.
                guard try !connection.query("SELECT 1 FROM apps WHERE app_id = \(appID)").isEmpty else {
                    throw StorageError(.notFound, "the app was deleted")
                }
                return ServedMenus(manifestVersion: version, menus: menus, commands: commands)
            }
        }
    }
}
