public import CivilTime
public import Foundation
import Hashing
public import Menus
public import Postgres

/// Rollouts and their decisions (`rollouts`, `rollout_decisions`, sql/0019).
///
/// A rollout starts from a pending proposal, which it marks accepted (its note says so); it reserves
/// the new arm's `menu_version` among the element type's layouts and rollouts, so the events of the
/// two arms are always told apart, and a promote appends the layout under that same version, so the
/// events sent during the rollout stay the new layout's. Every decision holds the app's menu lock
/// (`ManifestStore.lockMenus`) like accepting and filing do, so none races with an accept, a filing or
/// a manifest import. The rollout is served only while the layout it was made from is current: a
/// manifest import that changes the element type's layout ends the comparison (promote refuses;
/// stop it and start again from a fresh proposal).
public struct RolloutStore: Sendable {
    /// Where "now" comes from: when a rollout starts, widens and ends (`started_at`, `share_since`,
    /// `ended_at`), when each decision is recorded and marks its proposal. `RolloutQuery` reads a
    /// running rollout's events from `share_since` up to its own clock's now, so both come from
    /// the one clock (a test that fixes it fixes both).
    let clock: WallClock

    public init(clock: WallClock = .system) {
        self.clock = clock
    }

    /// Starts a rollout of a pending proposal for `share` of people: the proposal is marked accepted,
    /// the current layout stays current.
    /// - Throws: `StorageError` `.notFound`, `.invalidArgument` (the proposal is not pending, was made
    ///   from a layout that is no longer current, the element type has a running rollout, a share out
    ///   of range), or another `StorageError`.
    public func start(proposalID: Int64, share: Double, note: String?, by author: String?, keepingPruned title: String? = nil,
                      on connection: PostgresConnection) throws(StorageError) -> RolloutRecord
    {
        try Self.checkShare(share)
        return try StorageError.mapping {
            guard let row = try connection.query("SELECT app_id FROM proposals WHERE proposal_id = \(proposalID)").first else {
                throw StorageError(.notFound, "no proposal \(proposalID)")
            }
            let appID: Int32 = try row.decode(column: "app_id")
            return try connection.withTransaction { connection in
                let (proposal, current) = try startingProposal(id: proposalID, appID: appID, on: connection)
                if let running = try runningID(appID: appID, elementType: proposal.elementType, on: connection) {
                    throw StorageError(.invalidArgument, "\(proposal.elementType) already has rollout \(running) running; "
                        + "promote or stop it first")
                }
                let layout = try ProposalStore().servedLayout(proposal, keepingPruned: title, on: connection)
                let menuVersion = try reserveMenuVersion(appID: appID, current: current, on: connection)
                let salt = Hex.encode(SecureRandom.bytes(count: 16))
                let now = clock.now()
                let id: Int64 = try connection.query("""
                    INSERT INTO rollouts (app_id, element_type, proposal_id, base_layout_version, base_menu_version, layout,
                                          menu_version, salt, share, share_since, started_at)
                    VALUES (\(appID), \(proposal.elementType), \(proposalID), \(Int32(current.version)), \(current.menuVersion),
                            \(layout.jsonText)::jsonb, \(menuVersion), \(salt), \(share), \(now), \(now))
                    RETURNING rollout_id
                    """).first!.decode(column: "rollout_id")
                try record(.start, rolloutID: id, appID: appID, share: share, note: note, by: author, on: connection)
                let percent = Self.percentText(share)
                try markProposal(proposalID, appID: appID, as: .accepted,
                                 note: "rollout \(id) to \(percent) of people" + (note.map { ": \($0)" } ?? ""), by: author,
                                 on: connection)
                return try rollout(id: id, appID: appID, on: connection)
            }
        }
    }

    /// Widens a running rollout: people already shown the new layout keep it (the threshold only
    /// grows), and the comparison starts again from now (`share_since`), since the people who
    /// moved would blur both arms.
    /// - Throws: `.notFound`, `.invalidArgument` (not running, not wider), or another `StorageError`.
    public func setShare(id: Int64, share: Double, note: String?, by author: String?,
                         on connection: PostgresConnection) throws(StorageError) -> RolloutRecord
    {
        try Self.checkShare(share)
        return try decideRunning(id: id, on: connection) { rollout, connection in
            guard share > rollout.share else {
                throw StorageError(.invalidArgument, "rollout \(id) serves its layout to \(Self.percentText(rollout.share)) "
                    + "of people; the share only grows (narrowing would move people back to the old layout mid-comparison); "
                    + "stop the rollout instead")
            }
            try connection.execute("""
                UPDATE rollouts SET share = \(share), share_since = \(clock.now())
                WHERE app_id = \(rollout.appID) AND rollout_id = \(id)
                """)
            try record(.share, rolloutID: id, appID: rollout.appID, share: share, note: note, by: author, on: connection)
        }
    }

    /// Promotes a running rollout: its layout becomes the element type's current layout for all, with
    /// the menu version its events already carry.
    /// - Returns: the rollout and the new layout version.
    /// - Throws: `.notFound`, `.invalidArgument` (not running, or the layout it was made from is no
    ///   longer current), or another `StorageError`.
    public func promote(id: Int64, note: String?, by author: String?, on connection: PostgresConnection) throws(StorageError)
        -> (rollout: RolloutRecord, layoutVersion: Int)
    {
        var version = 0
        let rollout = try decideRunning(id: id, on: connection) { rollout, connection in
            let layouts = LayoutStore()
            guard let current = try layouts.currentLayout(appID: rollout.appID, elementType: rollout.elementType, on: connection),
                  current.version == rollout.baseLayoutVersion
            else {
                throw StorageError(.invalidArgument, "rollout \(id) was made from layout version \(rollout.baseLayoutVersion) "
                    + "of \(rollout.elementType), which is no longer current; stop it")
            }
            version = try layouts.append(
                appID: rollout.appID, elementType: rollout.elementType,
                menu: ElementMenu(layout: rollout.layout, editMenu: current.editMenu, preview: current.preview,
                                  menuVersion: rollout.menuVersion),
                source: .proposal, manifestID: current.manifestID, proposalID: rollout.proposalID, on: connection).version
            try end(rollout, as: .promoted, on: connection)
            try record(.promote, rolloutID: id, appID: rollout.appID, share: nil, note: note, by: author, on: connection)
        }
        return (rollout, version)
    }

    /// Stops a running rollout: the old layout is served to all again, and the proposal is marked
    /// rejected, so the same layout is not proposed again for the same current layout.
    /// - Throws: `.notFound`, `.invalidArgument` (not running), or another `StorageError`.
    public func stop(id: Int64, note: String?, by author: String?, on connection: PostgresConnection) throws(StorageError)
        -> RolloutRecord
    {
        try decideRunning(id: id, on: connection) { rollout, connection in
            try end(rollout, as: .stopped, on: connection)
            try record(.stop, rolloutID: id, appID: rollout.appID, share: nil, note: note, by: author, on: connection)
            try markProposal(rollout.proposalID, appID: rollout.appID, as: .rejected,
                             note: "rollout \(id) stopped" + (note.map { ": \($0)" } ?? ""), by: author, on: connection)
        }
    }

    /// Rollouts, newest first, optionally of one app and one status.
    public func list(appID: Int32? = nil, status: RolloutRecord.Status? = nil, on connection: PostgresConnection)
        throws(StorageError) -> [RolloutRecord]
    {
        try StorageError.mapping {
            var query: PostgresQuery = "SELECT \(unsafeRaw: Self.columns) FROM rollouts r JOIN apps a ON a.app_id = r.app_id WHERE true"
            if let appID { query.append(" AND r.app_id = \(appID)") }
            if let status { query.append(" AND r.status = \(status.rawValue)") }
            query.append(" ORDER BY r.rollout_id DESC")
            return try connection.query(query).map(Self.record)
        }
    }

    /// One rollout by id, nil when there is none.
    public func rollout(id: Int64, on connection: PostgresConnection) throws(StorageError) -> RolloutRecord? {
        try StorageError.mapping {
            try connection.query("""
                SELECT \(unsafeRaw: Self.columns) FROM rollouts r JOIN apps a ON a.app_id = r.app_id WHERE r.rollout_id = \(id)
                """).first.map(Self.record)
        }
    }

    /// The decisions on a rollout, oldest first.
    public func decisions(id: Int64, on connection: PostgresConnection) throws(StorageError) -> [RolloutDecision] {
        try StorageError.mapping {
            try connection.query("""
                SELECT action, share, decided_by, note, decided_at FROM rollout_decisions
                WHERE rollout_id = \(id) ORDER BY decision_id
                """).map { row in
                RolloutDecision(action: RolloutDecision.Action(rawValue: try row.decode(column: "action")) ?? .start,
                                share: try row.decode(column: "share"), decidedBy: try row.decode(column: "decided_by"),
                                note: try row.decode(column: "note"), decidedAt: try row.decode(column: "decided_at"))
            }
        }
    }

    /// The id of the running rollout of an element type, if any.
    public func runningID(appID: Int32, elementType: String, on connection: PostgresConnection) throws(StorageError) -> Int64? {
        try StorageError.mapping {
            try connection.query("""
                SELECT rollout_id FROM rollouts WHERE app_id = \(appID) AND element_type = \(elementType) AND status = 'running'
                """).first.map { try $0.decode(Int64.self, column: "rollout_id") }
        }
    }

    /// "20%", "12.5%": a share as people read it.
    public static func percentText(_ share: Double) -> String {
        let percent = (share * 1000).rounded() / 10
        return (percent == percent.rounded() ? String(Int(percent)) : String(percent)) + "%"
    }

    static func checkShare(_ share: Double) throws(StorageError) {
        guard share.isFinite, share > 0, share < 1 else {
            throw StorageError(.invalidArgument, "a rollout's share is above 0% and below 100%")
        }
    }

    // MARK: - Pieces

    /// Locks the app's menus and the rollout, checks that it is running, runs `body`, and returns the
    /// rollout as it is afterwards; in one transaction.
    private func decideRunning(id: Int64, on connection: PostgresConnection,
                               _ body: (RolloutRecord, PostgresConnection) throws -> Void) throws(StorageError) -> RolloutRecord
    {
        try StorageError.mapping {
            guard let row = try connection.query("SELECT app_id FROM rollouts WHERE rollout_id = \(id)").first else {
                throw StorageError(.notFound, "no rollout \(id)")
            }
            let appID: Int32 = try row.decode(column: "app_id")
            return try connection.withTransaction { connection in
                try ManifestStore.lockMenus(appID: appID, on: connection)
                guard let row = try connection.query("""
                    SELECT \(unsafeRaw: Self.columns) FROM rollouts r JOIN apps a ON a.app_id = r.app_id
                    WHERE r.app_id = \(appID) AND r.rollout_id = \(id) FOR UPDATE OF r
                    """).first
                else { throw StorageError(.notFound, "no rollout \(id)") }
                let rollout = try Self.record(row)
                guard rollout.status == .running else {
                    throw StorageError(.invalidArgument, "rollout \(id) is \(rollout.status.rawValue); only a running rollout can change")
                }
                try body(rollout, connection)
                return try self.rollout(id: id, appID: appID, on: connection)
            }
        }
    }

    private func rollout(id: Int64, appID: Int32, on connection: PostgresConnection) throws -> RolloutRecord {
        guard let row = try connection.query("""
            SELECT \(unsafeRaw: Self.columns) FROM rollouts r JOIN apps a ON a.app_id = r.app_id
            WHERE r.app_id = \(appID) AND r.rollout_id = \(id)
            """).first
        else { throw StorageError(.notFound, "no rollout \(id)") }
        return try Self.record(row)
    }

    private func end(_ rollout: RolloutRecord, as status: RolloutRecord.Status, on connection: PostgresConnection) throws {
        try connection.execute("""
            UPDATE rollouts SET status = \(status.rawValue), ended_at = \(clock.now())
            WHERE app_id = \(rollout.appID) AND rollout_id = \(rollout.id)
            """)
    }

    private func record(_ action: RolloutDecision.Action, rolloutID: Int64, appID: Int32, share: Double?, note: String?,
                        by author: String?, on connection: PostgresConnection) throws
    {
        try connection.execute("""
            INSERT INTO rollout_decisions (app_id, rollout_id, action, share, decided_by, note, decided_at)
            VALUES (\(appID), \(rolloutID), \(action.rawValue), \(share), NULLIF(\(author ?? ""), ''), NULLIF(\(note ?? ""), ''),
                    \(clock.now()))
            """)
    }

    /// The new arm's menu version: what accepting would assign (the manifest's version plus the next
    /// layout version), free among the element type's layouts and rollouts.
    private func reserveMenuVersion(appID: Int32, current: LayoutRecord, on connection: PostgresConnection) throws -> String {
        let taken = Set(try connection.query("""
            SELECT menu_version FROM layouts WHERE app_id = \(appID) AND element_type = \(current.elementType)
            UNION SELECT menu_version FROM rollouts WHERE app_id = \(appID) AND element_type = \(current.elementType)
            """).map { try $0.decode(String.self, column: "menu_version") })
        let base = try connection.query("""
            SELECT version FROM manifests WHERE app_id = \(appID) AND manifest_id = \(Int32(current.manifestID ?? 0))
            """).first.map { try $0.decode(String.self, column: "version") } ?? ""

        return MenuVersionText.assign(requested: nil, base: base, layoutVersion: current.version + 1, taken: taken)
    }

    static let columns = """
        r.rollout_id, r.app_id, a.name AS app_name, r.element_type, r.proposal_id, r.base_layout_version, \
        r.base_menu_version, r.layout::text AS layout, r.menu_version, r.salt, r.share, r.share_since, r.status, \
        r.started_at, r.ended_at
        """

    static func record(_ row: PostgresRow) throws -> RolloutRecord {
        let id: Int64 = try row.decode(column: "rollout_id")
        let layout: Layout
        do {
            layout = try Layout(jsonText: try row.decode(String.self, column: "layout"))
        } catch {
            throw StorageError(.database, "the stored layout of rollout \(id) does not read: \(error)")
        }
        let status: String = try row.decode(column: "status")
        return RolloutRecord(
            id: id, appID: try row.decode(column: "app_id"), appName: try row.decode(column: "app_name"),
            elementType: try row.decode(column: "element_type"), proposalID: try row.decode(column: "proposal_id"),
            baseLayoutVersion: Int(try row.decode(Int32.self, column: "base_layout_version")),
            baseMenuVersion: try row.decode(column: "base_menu_version"), layout: layout,
            menuVersion: try row.decode(column: "menu_version"), salt: try row.decode(column: "salt"),
            share: try row.decode(column: "share"), shareSince: try row.decode(column: "share_since"),
            status: RolloutRecord.Status(rawValue: status) ?? .running, startedAt: try row.decode(column: "started_at"),
            endedAt: try row.decode(column: "ended_at"))
    }
}
