import Postgres

extension StorageError {
    /// Wraps a PostgreSQL error: an outage (connection lost, server shutting down, pool closed or
    /// timed out) becomes `.unavailable`, anything else `.database`.
    init(_ error: PostgresError) {
        if error.isConnectionError || error.kind == .poolTimeout || error.kind == .poolClosed {
            self.init(.unavailable, "PostgreSQL is unavailable", underlying: error)
        } else {
            self.init(.database, error.message, underlying: error)
        }
    }
}
