public import CivilTime
public import Experiments
public import Postgres

/// Rollouts over a pool, for the admin API: the `RolloutStore` reads with their comparison, errors
/// as `StorageError` (`.unavailable` for an outage, so a client is told to retry).
public final class RolloutReview: Sendable {
    private let pool: PostgresPool
    /// Now, for the stores' stamps (decided, started, ended) and a running rollout's end.
    private let clock: WallClock

    public init(pool: PostgresPool, clock: WallClock = .system) {
        self.pool = pool
        self.clock = clock
    }

    /// Rollouts, newest first, of one app (nil: every app) and one status (nil: all).
    public func list(appID: Int32?, status: RolloutRecord.Status?) throws(StorageError) -> [RolloutRecord] {
        try StorageError.mapping {
            try pool.withConnection { connection in try RolloutStore(clock: clock).list(appID: appID, status: status, on: connection) }
        }
    }

    /// One rollout's record alone (no comparison); nil when there is none.
    public func record(id: Int64) throws(StorageError) -> RolloutRecord? {
        try StorageError.mapping {
            try pool.withConnection { connection in try RolloutStore(clock: clock).rollout(id: id, on: connection) }
        }
    }

    /// A decision on a running rollout from the review page: widen it, promote it or stop it
    /// (`RolloutStore.setShare`, `promote`, `stop`; each recorded with who and why).
    public enum Decision: Sendable, Equatable {
        case setShare(Double)
        case promote
        case stop
    }

    /// Takes `decision` on rollout `id`; returns the rollout as it is afterwards.
    /// - Throws: `StorageError` `.notFound`, `.invalidArgument` (not running, a share that does not
    ///   widen, a promote whose base layout is no longer current), or another `StorageError`.
    public func decide(id: Int64, _ decision: Decision, note: String?, by author: String) throws(StorageError) -> RolloutRecord {
        try StorageError.mapping {
            try pool.withConnection { connection in
                let store = RolloutStore(clock: clock)
                switch decision {
                case .setShare(let share): return try store.setShare(id: id, share: share, note: note, by: author, on: connection)
                case .promote: return try store.promote(id: id, note: note, by: author, on: connection).rollout
                case .stop: return try store.stop(id: id, note: note, by: author, on: connection)
                }
            }
        }
    }

    /// One rollout with its decisions and its comparison (one look per day); nil when there is none.
    public func rollout(id: Int64) throws(StorageError)
        -> (rollout: RolloutRecord, decisions: [RolloutDecision], looks: [ExperimentLook])?
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                guard let rollout = try RolloutStore(clock: clock).rollout(id: id, on: connection) else { return nil }
                return (rollout, try RolloutStore(clock: clock).decisions(id: id, on: connection),
                        try RolloutQuery(clock: clock).looks(of: rollout, on: connection))
            }
        }
    }
}
