public import Postgres

extension PostgresPool {
    /// True when a trivial query answers through the pool: PostgreSQL is reachable.
    public func ping() -> Bool {
        (try? withConnection { connection in try connection.query("SELECT 1").count }) == 1
    }
}
