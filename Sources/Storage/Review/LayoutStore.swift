import Foundation
public import Menus
public import Postgres

/// The layout history of every element type (`layouts`): the newest version is the current
/// layout, the one `GET /v1/menus` serves and `menus export` writes.
public struct LayoutStore: Sendable {
    public init() {}

    /// The current layout of every element type of the app, by element type.
    /// - Throws: `StorageError` (`.database` also for a stored layout that does not read).
    public func currentLayouts(appID: Int32, on connection: PostgresConnection) throws(StorageError) -> [LayoutRecord] {
        return try StorageError.mapping {
            try currentLayoutRows(appID: appID, on: connection).map(Self.record)
        }
    }

    /// The rows of `currentLayouts`, each decoded by `record`.
    func currentLayoutRows(appID: Int32, on connection: PostgresConnection) throws -> [PostgresRow] {
        Array(try connection.query("""
            SELECT DISTINCT ON (element_type) \(unsafeRaw: Self.columns)
            FROM layouts WHERE app_id = \(appID)
            ORDER BY element_type, layout_version DESC
            """))
    }

    /// The apps (id and name, by name) with a layout of `elementType`.
    public func apps(holding elementType: String, on connection: PostgresConnection) throws(StorageError)
        -> [(id: Int32, name: String)]
    {
        try StorageError.mapping {
            try connection.query("""
                SELECT a.app_id, a.name FROM apps a
                WHERE a.app_id IN (SELECT l.app_id FROM layouts l WHERE l.element_type = \(elementType)) ORDER BY a.name
                """).map { (try $0.decode(Int32.self, column: "app_id"), try $0.decode(String.self, column: "name")) }
        }
    }

    /// The current layout of one element type, if it has one.
    public func currentLayout(appID: Int32, elementType: String, on connection: PostgresConnection) throws(StorageError)
        -> LayoutRecord?
    {
        return try StorageError.mapping {
            try connection.query("""
                SELECT \(unsafeRaw: Self.columns) FROM layouts
                WHERE app_id = \(appID) AND element_type = \(elementType)
                ORDER BY layout_version DESC LIMIT 1
                """).first.map(Self.record)
        }
    }

    /// Every version of an element type's layout, oldest first.
    public func history(appID: Int32, elementType: String, on connection: PostgresConnection) throws(StorageError) -> [LayoutRecord] {
        return try StorageError.mapping {
            try connection.query("""
                SELECT \(unsafeRaw: Self.columns) FROM layouts
                WHERE app_id = \(appID) AND element_type = \(elementType)
                ORDER BY layout_version
                """).map(Self.record)
        }
    }

    /// Stores a new version of an element type's layout and returns its version number and its
    /// `menu_version` (`MenuVersionText.assign`: `menu.menuVersion` when given and free, else the
    /// manifest's version plus `+N`). Call it in a transaction holding the app's menu lock
    /// (`ManifestStore.lockMenus`), so versions never clash.
    @discardableResult
    public func append(appID: Int32, elementType: String, menu: ElementMenu, source: LayoutSource,
                       manifestID: Int?, proposalID: Int64?, on connection: PostgresConnection) throws(StorageError)
        -> (version: Int, menuVersion: String)
    {
        return try StorageError.mapping {
            let existing = try connection.query("""
                SELECT layout_version, menu_version FROM layouts WHERE app_id = \(appID) AND element_type = \(elementType)
                """)
            let version = try existing.map { Int(try $0.decode(Int32.self, column: "layout_version")) }.max().map { $0 + 1 } ?? 1
            let taken = Set(try existing.map { try $0.decode(String.self, column: "menu_version") })
            let base = try connection.query("""
                SELECT version FROM manifests WHERE app_id = \(appID) AND manifest_id = \(Int32(manifestID ?? 0))
                """).first.map { try $0.decode(String.self, column: "version") } ?? ""

            let requested = menu.menuVersion ?? (source == .manifest && !base.isEmpty ? base : nil)
            let menuVersion = MenuVersionText.assign(requested: requested, base: base, layoutVersion: version, taken: taken)
            try connection.execute("""
                INSERT INTO layouts (app_id, element_type, layout_version, layout, edit_menu, preview, source,
                                     manifest_id, proposal_id, menu_version)
                VALUES (\(appID), \(elementType), \(Int32(version)), \(menu.layout.jsonText)::jsonb,
                        \(menu.editMenu), \(menu.preview), \(source.rawValue), NULLIF(\(Int32(manifestID ?? 0)), 0),
                        NULLIF(\(proposalID ?? 0), 0), \(menuVersion))
                """)
            return (version, menuVersion)
        }
    }

    /// The columns `record` decodes, by these names (`layout::text` keeps the name `layout`).
    static let columns = """
        app_id, element_type, layout_version, layout::text, edit_menu, preview, source, manifest_id, \
        proposal_id, created_at, menu_version
        """

    static func record(_ row: PostgresRow) throws -> LayoutRecord {
        let elementType: String = try row.decode(column: "element_type")
        let text: String = try row.decode(column: "layout")
        let layout: Layout
        do {
            layout = try Layout(jsonText: text)
        } catch {
            throw StorageError(.database, "the stored layout of \(elementType) does not read: \(error)")
        }
        let sourceText: String = try row.decode(column: "source")
        return LayoutRecord(
            appID: try row.decode(column: "app_id"), elementType: elementType,
            version: try row.decode(column: "layout_version"), layout: layout,
            editMenu: try row.decode(column: "edit_menu"), preview: try row.decode(column: "preview"),
            source: LayoutSource(rawValue: sourceText) ?? .manifest,
            manifestID: try row.decode(Int?.self, column: "manifest_id"),
            proposalID: try row.decode(Int64?.self, column: "proposal_id"),
            createdAt: try row.decode(column: "created_at"), menuVersion: try row.decode(column: "menu_version"))
    }
}
