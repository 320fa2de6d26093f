public import CivilTime
public import Foundation
import Menus
public import Postgres

/// A rollback as stored in `layout_rollbacks` (sql/0018).
public struct LayoutRollbackRecord: Sendable, Hashable {
    public var elementType: String
    /// The version the rollback appended.
    public var layoutVersion: Int
    /// The version whose layout it serves again.
    public var restoredVersion: Int
    /// The version that was current when it ran.
    public var replacedVersion: Int
    /// The accepted proposal whose layout it took back.
    public var proposalID: Int64?
    public var decidedBy: String
    public var note: String
    public var createdAt: UTCTimestamp
}

/// Undo of an accept: `menurank layouts rollback ELEMENT_TYPE --note WHY` and the review page's
/// button serve the layout from before the element type's last accepted proposal again, as a new
/// layout version (source `rollback`, a `menu_version` of its own so outcomes tell the versions
/// apart), recorded with who and why. Like an accept it runs under the app's menu lock, so layout
/// versions never clash.
///
/// Refused (`.invalidArgument`, with what to do): an element type without an accepted proposal in
/// its history, one whose current layout is not the last accepted one (already rolled back, or a
/// manifest imported since, which a rollback must not undo), and one with a running rollout (stop
/// the rollout instead, which serves the old layout to everyone).
public struct LayoutRollback: Sendable {
    public init() {}

    /// Rolls `elementType` of `appID` back; returns the stored rollback and the new `menu_version`.
    /// - Throws: `StorageError` (`.invalidArgument` when refused, see the type).
    public func rollBack(appID: Int32, elementType: String, note: String, by author: String,
                         on connection: PostgresConnection) throws(StorageError)
        -> (rollback: LayoutRollbackRecord, menuVersion: String)
    {
        try StorageError.mapping {
            try connection.withTransaction { connection in
                try ManifestStore.lockMenus(appID: appID, on: connection)
                let layouts = LayoutStore()
                let history = try layouts.history(appID: appID, elementType: elementType, on: connection)
                guard let current = history.last else {
                    throw StorageError(.invalidArgument, "\(elementType) has no layout (import a manifest that declares it)")
                }
                let running = try connection.query("""
                    SELECT rollout_id FROM rollouts
                    WHERE app_id = \(appID) AND element_type = \(elementType) AND status = 'running'
                    """).first.map { try $0.decode(Int64.self, column: "rollout_id") }

                if let running {
                    throw StorageError(.invalidArgument, "\(elementType) has a running rollout (#\(running)); stop it "
                        + "instead (menurank rollouts stop \(running)), which serves the current layout to everyone")
                }
                guard let accepted = history.lastIndex(where: { $0.source == .proposal }) else {
                    throw StorageError(.invalidArgument, "\(elementType) has no accepted proposal to roll back "
                        + "(its layouts come from manifests only)")
                }
                guard accepted > 0 else {
                    throw StorageError(.invalidArgument, "\(elementType) has no layout from before proposal "
                        + "\(history[accepted].proposalID.map(String.init) ?? "?")")
                }
                let restored = history[accepted - 1]
                guard current.version == history[accepted].version else {
                    let origin = current.source == .rollback ? "a rollback" : "a manifest import"
                    throw StorageError(.invalidArgument, "the current layout of \(elementType) (version \(current.version)) "
                        + "comes from \(origin) after proposal \(history[accepted].proposalID.map(String.init) ?? "?") was "
                        + "accepted; only the last accepted layout can be rolled back")
                }
                let stored = try layouts.append(
                    appID: appID, elementType: elementType,
                    menu: ElementMenu(layout: restored.layout, editMenu: restored.editMenu, preview: restored.preview),
                    source: .rollback, manifestID: current.manifestID, proposalID: history[accepted].proposalID,
                    on: connection)
                let row = try connection.query("""
                    INSERT INTO layout_rollbacks (app_id, element_type, layout_version, restored_version, replaced_version,
                                                  proposal_id, decided_by, note)
                    VALUES (\(appID), \(elementType), \(Int32(stored.version)), \(Int32(restored.version)),
                            \(Int32(current.version)), \(history[accepted].proposalID), \(author), \(note))
                    RETURNING \(unsafeRaw: Self.columns)
                    """)[0]
                return (try Self.record(row), stored.menuVersion)
            }
        }
    }

    /// The rollbacks of an element type (every one of the app's when nil), newest first.
    /// - Throws: `StorageError`.
    public func history(appID: Int32, elementType: String?, on connection: PostgresConnection) throws(StorageError)
        -> [LayoutRollbackRecord]
    {
        try StorageError.mapping {
            var query: PostgresQuery = "SELECT \(unsafeRaw: Self.columns) FROM layout_rollbacks WHERE app_id = \(appID)"
            if let elementType { query.append(" AND element_type = \(elementType)") }
            query.append(" ORDER BY created_at DESC, layout_version DESC")
            return try connection.query(query).map(Self.record)
        }
    }

    static let columns = """
        element_type, layout_version, restored_version, replaced_version, proposal_id, decided_by, note, created_at
        """

    static func record(_ row: PostgresRow) throws -> LayoutRollbackRecord {
        LayoutRollbackRecord(elementType: try row.decode(column: "element_type"),
                             layoutVersion: Int(try row.decode(Int32.self, column: "layout_version")),
                             restoredVersion: Int(try row.decode(Int32.self, column: "restored_version")),
                             replacedVersion: Int(try row.decode(Int32.self, column: "replaced_version")),
                             proposalID: try row.decode(Int64?.self, column: "proposal_id"),
                             decidedBy: try row.decode(column: "decided_by"), note: try row.decode(column: "note"),
                             createdAt: try row.decode(column: "created_at"))
    }
}
