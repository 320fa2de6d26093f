public import Experiments
public import Postgres

/// Rollouts over a pool, for the admin API: the `RolloutStore` reads with their comparison, errors
/// as `StorageError` (`.unavailable` for an outage, so a client is told to retry).
public final class RolloutReview: Sendable {
    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Rollouts, newest first, of one app (nil: every app) and one status (nil: all).
    public func list(appID: Int32?, status: RolloutRecord.Status?) throws(StorageError) -> [RolloutRecord] {
        try StorageError.mapping {
            try pool.withConnection { connection in try RolloutStore().list(appID: appID, status: status, on: connection) }
        }
    }

    /// One rollout with its decisions and its comparison (one look per day); nil when there is none.
    public func rollout(id: Int64) throws(StorageError)
        -> (rollout: RolloutRecord, decisions: [RolloutDecision], looks: [ExperimentLook])?
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                guard let rollout = try RolloutStore().rollout(id: id, on: connection) else { return nil }
                return (rollout, try RolloutStore().decisions(id: id, on: connection),
                        try RolloutQuery().looks(of: rollout, on: connection))
            }
        }
    }
}
