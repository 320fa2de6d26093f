import Postgres

extension StorageError {
    /// Wraps a PostgreSQL error: an outage (connection lost, server shutting down, pool closed or
    /// timed out) and a transient conflict (a deadlock or serialization failure between writers,
    /// which a retry resolves) become `.unavailable`, so a client is told to retry (503 with
    /// Retry-After) rather than given a 500; anything else is `.database`.
    init(_ error: PostgresError) {
        let transient = error.sqlState == SQLState.deadlockDetected || error.sqlState == SQLState.serializationFailure
        if transient {
            self.init(.unavailable, "a conflicting write; retry", underlying: error)
        } else if error.isConnectionError || error.kind == .poolTimeout || error.kind == .poolClosed {
            self.init(.unavailable, "PostgreSQL is unavailable", underlying: error)
        } else {
            self.init(.database, error.message, underlying: error)
        }
    }
}
