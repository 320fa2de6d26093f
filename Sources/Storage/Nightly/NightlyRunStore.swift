public import CivilTime
public import Postgres

/// The record of the daemon's nights (`nightly_runs`, sql/0021) and the lock that lets one daemon
/// of several run a night (`serve --nightly-at`).
///
/// The lock is a session advisory lock (`pg_try_advisory_lock`) on the connection that runs the
/// night: it is held across the night's transactions (the rollup's, the filing's) and freed by
/// `unlock` or when the connection ends, so a daemon that dies mid-night never blocks the others.
/// Under the lock the night's row says whether it is done; it is written outside the night's own
/// transactions, so a night that fails still leaves its outcome.
public struct NightlyRunStore: Sendable {
    /// The two keys of the lock (`pg_try_advisory_lock(key, night)`): "mrnt", then 1.
    public static let lockKey: Int32 = 0x6D72_6E74

    public init() {}

    /// Takes the night's lock on this session without waiting; false when another session holds it.
    /// - Throws: `StorageError`.
    public func tryLock(on connection: PostgresConnection) throws(StorageError) -> Bool {
        try StorageError.mapping {
            try connection.query("SELECT pg_try_advisory_lock(\(Self.lockKey), 1) AS locked")[0].decode(Bool.self, column: "locked")
        }
    }

    /// Frees the lock `tryLock` took.
    /// - Throws: `StorageError`.
    public func unlock(on connection: PostgresConnection) throws(StorageError) {
        try StorageError.mapping {
            _ = try connection.query("SELECT pg_advisory_unlock(\(Self.lockKey), 1)")
        }
    }

    /// The outcome recorded for `night` (`running`, `succeeded`, `failed`, `stopped`), nil when
    /// it was never started.
    /// - Throws: `StorageError`.
    public func outcome(of night: CivilDate, on connection: PostgresConnection) throws(StorageError) -> String? {
        try StorageError.mapping {
            try connection.query("SELECT outcome FROM nightly_runs WHERE night = \(night)").first?
                .decode(String.self, column: "outcome")

        }
    }

    /// Records that `runner` starts `night` (again: one more attempt).
    /// - Throws: `StorageError`.
    public func begin(_ night: CivilDate, runner: String, at time: UTCTimestamp, on connection: PostgresConnection)
        throws(StorageError)
    {
        try StorageError.mapping {
            _ = try connection.execute("""
                INSERT INTO nightly_runs (night, outcome, runner, started_at) VALUES (\(night), 'running', \(runner), \(time))
                ON CONFLICT (night) DO UPDATE SET outcome = 'running', runner = EXCLUDED.runner,
                    attempts = nightly_runs.attempts + 1, started_at = EXCLUDED.started_at, finished_at = NULL,
                    filed = NULL, detail = NULL
                """)
        }
    }

    /// Records how `night` ended: `succeeded` (with the proposals filed), `failed` or `stopped`
    /// (with `detail`, cut to 2,000 characters).
    /// - Throws: `StorageError`.
    public func finish(_ night: CivilDate, outcome: String, filed: Int? = nil, detail: String? = nil, at time: UTCTimestamp,
                       on connection: PostgresConnection) throws(StorageError)
    {
        precondition(["succeeded", "failed", "stopped"].contains(outcome), "a finished night's outcome")
        try StorageError.mapping {
            _ = try connection.execute("""
                UPDATE nightly_runs SET outcome = \(outcome), finished_at = \(time), filed = \(filed.map(Int32.init)),
                    detail = \(detail.map { String($0.prefix(2000)) })
                WHERE night = \(night)
                """)
        }
    }
}
