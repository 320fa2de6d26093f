public import CivilTime
import Foundation
public import Menus
public import Nightly
public import Postgres

/// Proposals and their review (`proposals`).
///
/// Filing never piles up: per element type there is at most one pending proposal (a unique index
/// guarantees it), a new one supersedes it, and a draft whose layout equals a pending or rejected
/// proposal made from the same base layout files nothing, so a nightly run that finds the same
/// thing again adds nothing. Filing and accepting hold the app's menu lock
/// (`ManifestStore.lockMenus`), so they never race with each other or with a manifest import, and
/// filing re-checks each draft's base layout version under it: a draft computed from a layout that
/// has since been replaced is not filed (`ProposalFiling.staleBase`).
public struct ProposalStore: Sendable {
    /// Where "now" comes from: when a proposal is filed (`created_at`), decided or superseded.
    let clock: WallClock

    public init(clock: WallClock = .system) {
        self.clock = clock
    }

    /// Files drafts for one app in one transaction and returns what happened to each, in order.
    /// A handful of statements whatever the number of drafts (arrays of the drafts' values are
    /// bound and unnested), so a nightly run over a thousand element types stays fast.
    ///
    /// With `evidence`, the ids of the new proposals are drawn first and each new draft's evidence
    /// is `evidence(index of the draft, its id)` instead of `draft.evidence`: a document that
    /// carries its own id is written once, with it, and never patched afterwards.
    /// - Throws: `StorageError`.
    public func file(_ drafts: [ProposalDraft], appID: Int32, on connection: PostgresConnection,
                     evidence: ((Int, Int64) -> String)? = nil) throws(StorageError) -> [ProposalFiling]
    {
        return try StorageError.mapping {
            guard !drafts.isEmpty else { return [] }
            precondition(Set(drafts.map(\.elementType)).count == drafts.count, "one draft per element type")
            return try connection.withTransaction { connection in
                try ManifestStore.lockMenus(appID: appID, on: connection)
                // The base re-checked under the menus lock that accepting, rolling back and importing
                // take: the drafts were computed before this transaction began.
                var current: [String: Int] = [:]
                for row in try connection.query("""
                    SELECT element_type, max(layout_version) AS layout_version FROM layouts
                    WHERE app_id = \(appID) AND element_type = ANY(\(drafts.map(\.elementType)))
                    GROUP BY element_type
                    """)
                {
                    current[try row.decode(String.self, column: "element_type")] =
                        Int(try row.decode(Int32.self, column: "layout_version"))
                }
                let stale = Set(drafts.filter { current[$0.elementType] != $0.baseLayoutVersion }.map(\.elementType))
                let existing = try matches(drafts.filter { !stale.contains($0.elementType) }, appID: appID, on: connection)
                var new = drafts.filter { existing[$0.elementType] == nil && !stale.contains($0.elementType) }
                // The new proposals' ids are drawn first, so that their evidence can carry them.
                var ids: [Int64] = []
                if !new.isEmpty {
                    ids = try connection.query("""
                        SELECT nextval(pg_get_serial_sequence('proposals', 'proposal_id')) AS proposal_id
                        FROM generate_series(1, \(Int32(new.count)))
                        """).map { try $0.decode(Int64.self, column: "proposal_id") }
                    if let evidence {
                        let index = Dictionary(uniqueKeysWithValues: drafts.enumerated().map { ($1.elementType, $0) })
                        for (position, id) in ids.enumerated() {
                            new[position].evidence = evidence(index[new[position].elementType]!, id)
                        }
                    }
                }
                var superseded: [String: [Int64]] = [:]
                var filed: [String: Int64] = [:]
                if !new.isEmpty {
                    let types = new.map(\.elementType)
                    // One instant for the filing: the proposals it supersedes end when the new ones begin.
                    let now = clock.now()
                    for row in try connection.query("""
                        UPDATE proposals SET status = 'superseded', decided_at = \(now)
                        WHERE app_id = \(appID) AND element_type = ANY(\(types)) AND status = 'pending'
                        RETURNING element_type, proposal_id
                        """)
                    {
                        superseded[try row.decode(String.self, column: "element_type"), default: []]
                            .append(try row.decode(Int64.self, column: "proposal_id"))
                    }
                    for row in try connection.query("""
                        INSERT INTO proposals (app_id, proposal_id, element_type, base_layout_version, window_from,
                                               window_to, current_layout, proposed_layout, evidence, ladder_stabilities,
                                               created_at)
                        SELECT \(appID), d.id, d.element_type, d.base, d.window_from, d.window_to, d.current::jsonb,
                               d.proposed::jsonb, e.evidence, \(unsafeRaw: Self.ladderStabilities(of: "e.evidence")), \(now)
                        FROM unnest(\(ids), \(types),
                                    \(new.map { Int32($0.baseLayoutVersion) }),
                                    \(new.map(\.windowFrom)),
                                    \(new.map(\.windowTo)), \(new.map(\.current.jsonText)),
                                    \(new.map(\.proposed.jsonText)), \(new.map(\.evidence)))
                             AS d(id, element_type, base, window_from, window_to, current, proposed, evidence)
                        CROSS JOIN LATERAL (SELECT d.evidence::jsonb AS evidence) e
                        RETURNING element_type, proposal_id
                        """)
                    {
                        filed[try row.decode(String.self, column: "element_type")] = try row.decode(Int64.self, column: "proposal_id")
                    }
                }
                return try drafts.map { draft in
                    if stale.contains(draft.elementType) { return .staleBase(currentLayoutVersion: current[draft.elementType]) }
                    if let match = existing[draft.elementType] { return match }
                    guard let id = filed[draft.elementType] else {
                        throw StorageError(.database, "the proposal for \(draft.elementType) was not stored")
                    }
                    return .filed(id: id, superseded: (superseded[draft.elementType] ?? []).sorted())
                }
            }
        }
    }

    /// The pending or rejected proposal with the draft's layout and base layout, if any (what
    /// `file` would keep instead of filing); a pending one wins over a rejected one.
    public func match(_ draft: ProposalDraft, appID: Int32, on connection: PostgresConnection) throws(StorageError)
        -> ProposalFiling?
    {
        return try StorageError.mapping {
            try matches([draft], appID: appID, on: connection)[draft.elementType]
        }
    }

    /// `match` for many drafts at once, by element type.
    public func matches(_ drafts: [ProposalDraft], appID: Int32, on connection: PostgresConnection) throws(StorageError)
        -> [String: ProposalFiling]
    {
        return try StorageError.mapping {
            try matchingProposals(drafts, appID: appID, withStability: false, on: connection).mapValues(\.filing)
        }
    }

    /// For each draft that matches a pending or rejected proposal (as `matches` finds them), by
    /// element type: that proposal, as filing would keep it, and the stability of each step of the
    /// ladder its evidence recorded: a night that proposes what is already on file need not
    /// resample its people again, nor file it again.
    public func lookUp(_ drafts: [ProposalDraft], appID: Int32, on connection: PostgresConnection)
        throws(StorageError) -> [String: Match]
    {
        return try StorageError.mapping {
            try matchingProposals(drafts, appID: appID, withStability: true, on: connection)
                .mapValues { Match(filing: $0.filing, stabilities: $0.stabilities) }
        }
    }

    /// A proposal on file that a draft matches (`lookUp`).
    public struct Match: Sendable {
        /// `.alreadyPending` or `.alreadyRejected`, with its id.
        public var filing: ProposalFiling
        /// The stability its evidence recorded for each step of the ladder (`promote`, ...).
        public var stabilities: [String: Double]
    }

    /// The pending or rejected proposal with each draft's layout and base layout (a pending one
    /// wins over a rejected one), by element type, and `withStability` the stability its evidence
    /// recorded (else nil: reading it decompresses each match's evidence, about half of the
    /// statement's time at a thousand matches).
    private func matchingProposals(_ drafts: [ProposalDraft], appID: Int32, withStability: Bool,
                                   on connection: PostgresConnection) throws
        -> [String: (filing: ProposalFiling, stabilities: [String: Double])]
    {
        guard !drafts.isEmpty else { return [:] }
        var out: [String: (filing: ProposalFiling, stabilities: [String: Double])] = [:]
        // `step=stability` pairs of the ladder, comma-separated (documents filed before the ladder
        // have none, and their steps are resampled again): stored with the proposal (sql/0025), or
        // for one filed before that column, read out of its evidence.
        let stability = PostgresQuery(unsafeSQL: withStability
            ? "coalesce(p.ladder_stabilities, \(Self.ladderStabilities(of: "p.evidence")))" : "NULL::text")
        for row in try connection.query("""
            SELECT DISTINCT ON (p.element_type) p.element_type, p.proposal_id, p.status, \(stability) AS stabilities

            FROM unnest(\(drafts.map(\.elementType)), \(drafts.map { Int32($0.baseLayoutVersion) }),
                        \(drafts.map(\.proposed.jsonText))) AS d(element_type, base, proposed)
            JOIN proposals p ON p.app_id = \(appID) AND p.element_type = d.element_type
                            AND p.base_layout_version = d.base AND p.proposed_layout = d.proposed::jsonb
                            AND p.status IN ('pending', 'rejected')
            ORDER BY p.element_type, p.status = 'pending' DESC, p.proposal_id DESC
            """)
        {
            let id: Int64 = try row.decode(column: "proposal_id")
            let status: String = try row.decode(column: "status")
            let pairs: String? = try row.decode(column: "stabilities")
            var stabilities: [String: Double] = [:]
            for pair in (pairs ?? "").split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let value = Double(parts[1]) { stabilities[String(parts[0])] = value }
            }
            out[try row.decode(column: "element_type")] = (status == "pending" ? .alreadyPending(id: id) : .alreadyRejected(id: id),
                                          stabilities)
        }
        return out
    }

    /// SQL for the `step=stability` pairs of the ladder recorded in `evidence` (a `jsonb`
    /// expression), in ladder order, comma-separated; '' when it records none. What filing stores
    /// in `ladder_stabilities` and what the lookup reads from the evidence of a proposal filed
    /// before that column (sql/0025): one definition for both.
    static func ladderStabilities(of evidence: String) -> String {
        """
        (SELECT coalesce(string_agg((l.s ->> 'step') || '=' || (l.s ->> 'stability'), ',' ORDER BY l.o), '')
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(\(evidence) -> 'ladder') = 'array'
                                        THEN \(evidence) -> 'ladder' ELSE '[]'::jsonb END)
              WITH ORDINALITY AS l(s, o)
         WHERE jsonb_typeof(l.s -> 'stability') = 'number')
        """
    }

    /// Proposals, newest first, optionally of one app and one status.
    public func list(appID: Int32? = nil, status: ProposalStatus? = nil, on connection: PostgresConnection) throws(StorageError)
        -> [ProposalRecord]
    {
        return try StorageError.mapping {
            var query: PostgresQuery = "SELECT \(unsafeRaw: Self.columns) FROM proposals p JOIN apps a ON a.app_id = p.app_id WHERE true"
            if let appID { query.append(" AND p.app_id = \(appID)") }
            if let status { query.append(" AND p.status = \(status.rawValue)") }
            query.append(" ORDER BY p.proposal_id DESC")
            return try connection.query(query).map(Self.record)
        }
    }

    /// One proposal by id.
    public func proposal(id: Int64, on connection: PostgresConnection) throws(StorageError) -> ProposalRecord? {
        return try StorageError.mapping {
            try connection.query("""
                SELECT \(unsafeRaw: Self.columns) FROM proposals p JOIN apps a ON a.app_id = p.app_id
                WHERE p.proposal_id = \(id)
                """).first.map(Self.record)
        }
    }

    /// Accepts a pending proposal: its layout becomes the element type's current layout (a new
    /// `layouts` version with source `proposal`). Refused when the proposal is not pending or when
    /// the layout it was made from is no longer the current one.
    /// - Returns: the accepted proposal, the new layout version and its `menu_version`.
    /// - Throws: `StorageError` `.notFound`, `.invalidArgument` (refused, with the reason), or
    ///   another `StorageError`.
    public func accept(id: Int64, note: String?, by author: String? = nil, keepingPruned title: String? = nil,
                       step: String? = nil, on connection: PostgresConnection) throws(StorageError)
        -> (proposal: ProposalRecord, layoutVersion: Int, menuVersion: String)
    {
        return try StorageError.mapping {
            try accept(id: id, appID: try appID(ofProposal: id, on: connection), note: note, by: author,
                       keepingPruned: title, step: step, on: connection)
        }
    }

    /// The layout of step `step` (`promote`, `reorder`, `regroup`) of a proposal's ladder, as its
    /// stored evidence holds it; a reviewer may accept a larger step than the one filed.
    /// - Throws: `StorageError` `.invalidArgument` when the ladder has no such offered step.
    public func stepLayout(_ proposal: ProposalRecord, step: String, on connection: PostgresConnection)
        throws(StorageError) -> Layout
    {
        return try StorageError.mapping {
            let rows = try connection.query("""
                SELECT (l.s -> 'groups')::text AS groups FROM proposals p
                CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(p.evidence -> 'ladder') = 'array'
                                                             THEN p.evidence -> 'ladder' ELSE '[]'::jsonb END) AS l(s)
                WHERE p.app_id = \(proposal.appID) AND p.proposal_id = \(proposal.id) AND l.s ->> 'step' = \(step)
                  AND jsonb_typeof(l.s -> 'groups') = 'array'
                """)
            guard let row = rows.first else {
                throw StorageError(.invalidArgument, "proposal \(proposal.id) offers no step \"\(step)\" "
                    + "(see its ladder with menurank proposals show \(proposal.id) --format json)")
            }
            return try Layout(jsonText: try row.decode(String.self, column: "groups"))
        }
    }

    /// `accept(id:note:by:keepingPruned:on:)` for a proposal of a known app: every statement then
    /// names the app, so on Citus the whole transaction runs on the app's shard.
    public func accept(id: Int64, appID: Int32, note: String?, by author: String? = nil,
                       keepingPruned title: String? = nil, step: String? = nil,
                       on connection: PostgresConnection) throws(StorageError)
        -> (proposal: ProposalRecord, layoutVersion: Int, menuVersion: String)
    {
        return try StorageError.mapping {
            try connection.withTransaction { connection in
                let proposal = try pendingForDecision(id: id, appID: appID, verb: "accepted", on: connection)
                try Self.refuseWhileRollingOut(proposal, on: connection)
                let layouts = LayoutStore()
                guard let current = try layouts.currentLayout(appID: proposal.appID, elementType: proposal.elementType,
                                                              on: connection)
                else {
                    throw StorageError(.invalidArgument, "\(proposal.elementType) has no current layout any more")
                }
                guard current.version == proposal.baseLayoutVersion else {
                    let origin = current.source == .proposal
                        ? "accepted from proposal \(current.proposalID.map(String.init) ?? "?")"
                        : "imported from a manifest"
                    throw StorageError(
                        .invalidArgument,
                        "proposal \(id) was made from layout version \(proposal.baseLayoutVersion) of \(proposal.elementType), "
                            + "but the current layout is version \(current.version) (\(origin)); run menurank recommend "
                            + "for a fresh proposal")
                }
                let stored = try layouts.append(
                    appID: proposal.appID, elementType: proposal.elementType,
                    menu: ElementMenu(layout: try step.map { try stepLayout(proposal, step: $0, on: connection) }
                                          ?? servedLayout(proposal, keepingPruned: title, on: connection),
                                      editMenu: current.editMenu, preview: current.preview),
                    source: .proposal, manifestID: current.manifestID, proposalID: id, on: connection)
                let decided = try decide(id: id, appID: proposal.appID, status: .accepted, note: note, by: author,
                                         on: connection)
                return (decided, stored.version, stored.menuVersion)
            }
        }
    }

    /// Refuses a plain accept while a rollout of the same element type runs: the accept would make
    /// a third layout current under both arms and end the comparison without a decision on it. The
    /// rollout is promoted or stopped first (each recorded with who and why), then this proposal, if
    /// still made from the current layout, can be accepted. Called with the app's menus locked, so no
    /// rollout starts between the check and the accept.
    /// - Throws: `StorageError` `.invalidArgument` naming the rollout and the two ways out.
    public static func refuseWhileRollingOut(_ proposal: ProposalRecord, on connection: PostgresConnection) throws(StorageError) {
        guard let running = try RolloutStore().runningID(appID: proposal.appID, elementType: proposal.elementType,
                                                          on: connection)
        else { return }
        throw StorageError(.invalidArgument, "\(proposal.elementType) has rollout \(running) running; a plain accept of "
            + "proposal \(proposal.id) would end it without a decision: promote it (menurank rollouts promote \(running)) "
            + "or stop it (menurank rollouts stop \(running)) first")
    }

    /// Rejects a pending proposal.
    /// - Throws: `StorageError` `.notFound`, `.invalidArgument` (not pending), or another `StorageError`.
    public func reject(id: Int64, note: String?, by author: String? = nil, on connection: PostgresConnection) throws(StorageError)
        -> ProposalRecord
    {
        return try StorageError.mapping {
            let appID = try appID(ofProposal: id, on: connection)
            return try connection.withTransaction { connection in
                let proposal = try pendingForDecision(id: id, appID: appID, verb: "rejected", on: connection)
                return try decide(id: id, appID: proposal.appID, status: .rejected, note: note, by: author, on: connection)
            }
        }
    }

    /// The app of a proposal (an app id never changes, so it is read before the transaction).
    private func appID(ofProposal id: Int64, on connection: PostgresConnection) throws -> Int32 {
        guard let row = try connection.query("SELECT app_id FROM proposals WHERE proposal_id = \(id)").first else {
            throw StorageError(.notFound, "no proposal \(id)")
        }
        return try row.decode(column: "app_id")

    }

    /// Locks the app's menus and the proposal, and checks that it is pending.
    private func pendingForDecision(id: Int64, appID: Int32, verb: String, on connection: PostgresConnection) throws
        -> ProposalRecord
    {
        try ManifestStore.lockMenus(appID: appID, on: connection)
        // Filtered by app too, so that on Citus the lock is taken on one shard.
        guard let row = try connection.query("""
            SELECT \(unsafeRaw: Self.columns) FROM proposals p JOIN apps a ON a.app_id = p.app_id
            WHERE p.app_id = \(appID) AND p.proposal_id = \(id) FOR UPDATE OF p
            """).first
        else { throw StorageError(.notFound, "no proposal \(id)") }
        let proposal = try Self.record(row)
        guard proposal.status == .pending else {
            throw StorageError(.invalidArgument,
                               "proposal \(id) is \(proposal.status.rawValue); only a pending proposal can be \(verb)")
        }
        return proposal
    }

    private func decide(id: Int64, appID: Int32, status: ProposalStatus, note: String?, by author: String?,
                        on connection: PostgresConnection) throws
        -> ProposalRecord
    {
        try connection.execute("""
            UPDATE proposals SET status = \(status.rawValue), decided_at = \(clock.now()), note = NULLIF(\(note ?? ""), ''),
                decided_by = NULLIF(\(author ?? ""), '')
            WHERE app_id = \(appID) AND proposal_id = \(id)
            """)
        guard let row = try connection.query("""
            SELECT \(unsafeRaw: Self.columns) FROM proposals p JOIN apps a ON a.app_id = p.app_id
            WHERE p.app_id = \(appID) AND p.proposal_id = \(id)
            """).first
        else { throw StorageError(.notFound, "no proposal \(id)") }
        return try Self.record(row)
    }

    /// The columns `record` decodes, by these names (a cast such as `::text` keeps the column's name).
    static let columns = """
        p.proposal_id, p.app_id, a.name AS app_name, p.element_type, p.status, p.base_layout_version, p.window_from, \
        p.window_to, p.current_layout::text, p.proposed_layout::text, p.evidence::text, p.created_at, \
        p.decided_at, p.note, p.decided_by
        """

    static func record(_ row: PostgresRow) throws -> ProposalRecord {
        let id: Int64 = try row.decode(column: "proposal_id")
        func layout(_ column: String) throws -> Layout {
            do {
                return try Layout(jsonText: try row.decode(String.self, column: column))
            } catch let error as ManifestError {
                throw StorageError(.database, "a stored layout of proposal \(id) does not read: \(error)")
            }
        }
        let statusText: String = try row.decode(column: "status")
        return ProposalRecord(
            id: id, appID: try row.decode(column: "app_id"), appName: try row.decode(column: "app_name"),
            elementType: try row.decode(column: "element_type"),
            status: ProposalStatus(rawValue: statusText) ?? .pending,
            baseLayoutVersion: try row.decode(column: "base_layout_version"),
            windowFrom: try row.decode(column: "window_from"), windowTo: try row.decode(column: "window_to"),
            current: try layout("current_layout"), proposed: try layout("proposed_layout"),
            evidence: try row.decode(column: "evidence"), createdAt: try row.decode(column: "created_at"),
            decidedAt: try row.decode(column: "decided_at"), note: try row.decode(column: "note"),
            decidedBy: try row.decode(column: "decided_by"))
    }
}
