public import Postgres

extension PostgresPool {
    /// True when a trivial query answers through the pool: PostgreSQL is reachable.
    public func ping() -> Bool {
        (try? withConnection { connection in try connection.query("SELECT 1").count }) == 1
    }

    /// Whether the database can take writes, as far as one query tells: nil when it can, else
    /// `.unavailable` with its reason: unreachable (or a connection refused for too many
    /// connections, or while starting up or shutting down), `read_only` for a standby in recovery
    /// or when its transactions default to read-only (both answer queries and refuse every write).
    public func writeReadiness() -> StorageError? {
        do {
            let (recovering, readOnly) = try StorageError.mapping {
                try withConnection { connection in
                    let row = try connection.query(
                        "SELECT pg_is_in_recovery() AS recovering, current_setting('transaction_read_only') = 'on' AS read_only")[0]
                    return (try row.decode(Bool.self, column: "recovering"), try row.decode(Bool.self, column: "read_only"))

                }
            }
            if recovering {
                return StorageError(.unavailable, "the database is a standby in recovery: read-only", reason: .readOnly)
            }
            if readOnly { return StorageError(.unavailable, StorageError.message(for: .readOnly), reason: .readOnly) }
            return nil
        } catch {
            if error.kind == .unavailable { return error }
            return StorageError(.unavailable, "the readiness query failed", reason: .unreachable, underlying: error)
        }
    }
}
