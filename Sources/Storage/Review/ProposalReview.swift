public import CivilTime
public import Menus
public import Postgres

/// Review of proposals over a pool, for the admin API: the `ProposalStore` operations with their
/// errors as `StorageError` (`.unavailable` for an outage, so a client is told to retry), plus what
/// a reviewer needs beside a proposal (command titles, the menus served now).
public final class ProposalReview: Sendable {
    private let pool: PostgresPool
    /// Now, for the stores' stamps (decided, started, ended) and a running rollout's end.
    private let clock: WallClock

    public init(pool: PostgresPool, clock: WallClock = .system) {
        self.pool = pool
        self.clock = clock
    }

    /// Proposals, newest first, of one app (nil: every app) and one status (nil: all), at most `limit`.
    public func list(appID: Int32?, status: ProposalStatus?, limit: Int) throws(StorageError) -> [ProposalRecord] {
        try StorageError.mapping {
            try pool.withConnection { connection in
                // Limited in SQL: each row carries its evidence, and old proposals pile up.
                var query: PostgresQuery = """
                    SELECT \(unsafeRaw: ProposalStore.columns) FROM proposals p JOIN apps a ON a.app_id = p.app_id WHERE true
                    """
                if let appID { query.append(" AND p.app_id = \(appID)") }
                if let status { query.append(" AND p.status = \(status.rawValue)") }
                query.append(" ORDER BY p.proposal_id DESC LIMIT \(Int64(limit))")
                return try connection.query(query).map(ProposalStore.record)
            }
        }
    }

    /// One proposal, nil when there is none.
    public func proposal(id: Int64) throws(StorageError) -> ProposalRecord? {
        try StorageError.mapping {
            try pool.withConnection { connection in try ProposalStore(clock: clock).proposal(id: id, on: connection) }
        }
    }

    /// The command attributes of the app's newest manifest (titles), by command id.
    public func commands(appID: Int32) throws(StorageError) -> [String: CommandInfo] {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try ManifestStore().latest(appID: appID, on: connection)?.document.manifest.commands ?? [:]
            }
        }
    }

    /// The app's id by name, nil when there is none.
    public func appID(named name: String) throws(StorageError) -> Int32? {
        try StorageError.mapping {
            try pool.withConnection { connection in try AppStore.appID(named: name, on: connection) }
        }
    }

    /// Accepts a pending proposal on behalf of `author`.
    /// - Throws: `.notFound`, `.invalidArgument` (not pending, or made from a layout that is no
    ///   longer current), `.unavailable`, `.database`.
    public func accept(id: Int64, note: String?, by author: String, keepingPruned title: String? = nil,
                       step: String? = nil) throws(StorageError)
        -> (proposal: ProposalRecord, layoutVersion: Int, menuVersion: String)
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try ProposalStore(clock: clock).accept(id: id, note: note, by: author, keepingPruned: title, step: step,
                                           on: connection)
            }
        }
    }

    /// Starts a rollout of a pending proposal to `share` of people on behalf of `author`
    /// (`RolloutStore.start`).
    public func startRollout(id: Int64, share: Double, note: String?, by author: String, keepingPruned title: String? = nil)
        throws(StorageError) -> RolloutRecord
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try RolloutStore(clock: clock).start(proposalID: id, share: share, note: note, by: author, keepingPruned: title,
                                         on: connection)
            }
        }
    }

    /// Rejects a pending proposal on behalf of `author`.
    public func reject(id: Int64, note: String?, by author: String) throws(StorageError) -> ProposalRecord {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try ProposalStore(clock: clock).reject(id: id, note: note, by: author, on: connection)
            }
        }
    }
}
