import Foundation
public import Menus
public import Postgres

/// Imported manifests (`manifests`), the command attributes of the newest one (`menu_commands`),
/// and the layouts they declare (through `LayoutStore`).
public struct ManifestStore: Sendable {
    /// The first key of the advisory lock that serialises changes to an app's layouts and
    /// proposals (`pg_advisory_xact_lock(key, app_id)`): imports, filing and accepting proposals.
    public static let menuLockKey: Int32 = 0x6D72_6D6E

    public init() {}

    /// Takes the app's menu lock until the end of the current transaction.
    public static func lockMenus(appID: Int32, on connection: PostgresConnection) throws(StorageError) {
        try StorageError.mapping {
            try connection.execute("SELECT pg_advisory_xact_lock(\(menuLockKey), \(appID))")
        }
    }

    /// Stores a manifest for an app in one transaction: the manifest as given (`text`, which must be
    /// the JSON `document` was loaded from), the command attributes (replacing the previous ones),
    /// and for each element type a new layout version when its layout, `edit_menu` or `preview`
    /// differs from the current one.
    /// - Throws: `StorageError` (`.database` also for a stored layout that does not read).
    public func importManifest(_ document: ManifestDocument, text: String, appID: Int32,
                               on connection: PostgresConnection) throws(StorageError) -> ManifestImport
    {
        return try StorageError.mapping {
            let manifest = document.manifest
            return try connection.withTransaction { connection in
                try Self.lockMenus(appID: appID, on: connection)
                let manifestID: Int = try connection.query("""
                    INSERT INTO manifests (app_id, version, body) VALUES (\(appID), \(manifest.version), \(text)::jsonb)
                    RETURNING manifest_id
                    """)[0].decode(column: "manifest_id")

                try connection.execute("DELETE FROM menu_commands WHERE app_id = \(appID)")
                for (id, info) in manifest.commands.sorted(by: { $0.key < $1.key }) {
                    try connection.execute("""
                        INSERT INTO menu_commands (app_id, command, title, destructive, pinned, keep, category)
                        VALUES (\(appID), \(id), \(info.title), \(info.destructive), \(info.pinned), \(info.keep),
                                NULLIF(\(info.category ?? ""), ''))
                        """)
                }
                let layouts = LayoutStore()
                var current: [String: LayoutRecord] = [:]
                for record in try layouts.currentLayouts(appID: appID, on: connection) {
                    current[record.elementType] = record
                }
                var entries: [ManifestImport.Entry] = []
                for (elementType, menu) in manifest.menus.sorted(by: { $0.key < $1.key }) {
                    let before = current[elementType]
                    if let before, before.menu.sameLayout(as: menu) {
                        entries.append(.init(elementType: elementType, change: .unchanged, previousVersion: before.version,
                                             version: before.version, menuVersion: before.menuVersion))
                        continue
                    }
                    let stored = try layouts.append(appID: appID, elementType: elementType, menu: menu, source: .manifest,
                                                    manifestID: manifestID, proposalID: nil, on: connection)
                    entries.append(.init(elementType: elementType, change: before == nil ? .added : .changed,
                                         previousVersion: before?.version, version: stored.version,
                                         menuVersion: stored.menuVersion))
                }
                for (elementType, record) in current.sorted(by: { $0.key < $1.key }) where manifest.menus[elementType] == nil {
                    entries.append(.init(elementType: elementType, change: .dropped, previousVersion: record.version,
                                         version: record.version, menuVersion: record.menuVersion))
                }
                entries.sort { $0.elementType < $1.elementType }
                return ManifestImport(appID: appID, manifestID: manifestID, entries: entries)
            }
        }
    }

    /// The newest manifest of an app, if one was imported.
    /// - Throws: `StorageError` (`.database` also when the stored body no longer loads).
    public func latest(appID: Int32, on connection: PostgresConnection) throws(StorageError) -> ManifestRecord? {
        return try StorageError.mapping {
            try Self.latestRow(appID: appID, on: connection).map { try Self.manifestRecord($0, appID: appID) }
        }
    }

    /// The row of the newest manifest of an app.
    private static func latestRow(appID: Int32, on connection: PostgresConnection) throws -> PostgresRow? {
        try connection.query("""
            SELECT manifest_id, version, body::text, imported_at FROM manifests
            WHERE app_id = \(appID) ORDER BY manifest_id DESC LIMIT 1
            """).first
    }

    /// A manifest row (`latestRow`) loaded. Tolerantly (`ManifestParser.loadStored`): an import by an
    /// earlier version may hold members that version accepted unread, which a file may no longer hold.
    private static func manifestRecord(_ row: PostgresRow, appID: Int32) throws -> ManifestRecord {
        let id: Int = try row.decode(column: "manifest_id")
        let body: String = try row.decode(column: "body")
        let document: ManifestDocument
        do {
            document = try ManifestParser.loadStored(body)
        } catch {
            throw StorageError(.database, "stored manifest \(id) no longer loads: \(error)")
        }
        return ManifestRecord(appID: appID, manifestID: id, version: try row.decode(column: "version"), document: document,
                              importedAt: try row.decode(column: "imported_at"))
    }

    /// The app's menus as they are now: the newest manifest with each element type's layout replaced
    /// by its current layout (accepted proposals included), together with those layout records.
    /// Nil when no manifest was imported.
    public func current(appID: Int32, on connection: PostgresConnection) throws(StorageError)
        -> (manifest: ManifestRecord, layouts: [String: LayoutRecord])?
    {
        try fetchCurrent(appID: appID, on: connection).decoded()
    }

    /// The rows `current` is made of, read and not yet decoded, so that the decoding (a thousand
    /// layouts and the manifest's JSON) can run on another thread while the connection goes on.
    public func fetchCurrent(appID: Int32, on connection: PostgresConnection) throws(StorageError) -> StoredMenus {
        return try StorageError.mapping {
            guard let manifest = try Self.latestRow(appID: appID, on: connection) else {
                return StoredMenus(appID: appID, manifest: nil, layouts: [])
            }
            return StoredMenus(appID: appID, manifest: manifest,
                               layouts: try LayoutStore().currentLayoutRows(appID: appID, on: connection))
        }
    }

    /// The stored rows of an app's current menus (`ManifestStore.fetchCurrent`), decoded by
    /// `decoded()`.
    public struct StoredMenus: Sendable {
        let appID: Int32
        let manifest: PostgresRow?
        let layouts: [PostgresRow]

        /// Whether a manifest was imported.
        public var hasManifest: Bool { manifest != nil }

        /// What `ManifestStore.current` gives.
        /// - Throws: `StorageError` (`.database` when a stored manifest or layout no longer loads).
        public func decoded() throws(StorageError) -> (manifest: ManifestRecord, layouts: [String: LayoutRecord])? {
            return try StorageError.mapping {
                guard let manifest else { return nil }
                var record = try ManifestStore.manifestRecord(manifest, appID: appID)
                var current: [String: LayoutRecord] = [:]
                for row in layouts {
                    let layout = try LayoutStore.record(row)
                    guard record.document.manifest.menus[layout.elementType] != nil else { continue }
                    current[layout.elementType] = layout
                    record.document.manifest.menus[layout.elementType] = layout.menu
                }
                return (record, current)
            }
        }
    }
}
