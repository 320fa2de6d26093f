import Postgres

extension PostgresError {
    /// A unique violation: SQLSTATE 23505, or the same error from a Citus worker during a COPY into
    /// a distributed table, which Citus 13 relays with the worker's message and detail but as an
    /// internal error (XX000).
    var isUniqueViolation: Bool {
        sqlState == .uniqueViolation
            || (sqlState == .internalError && message.hasPrefix("duplicate key value violates unique constraint"))
    }

    /// A row with no partition to go to (SQLSTATE 23514), also as Citus relays it from a worker.
    var isMissingPartition: Bool {
        sqlState == .checkViolation
            || (sqlState == .internalError && message.hasPrefix("no partition of relation"))
    }

    /// A write on the open-day path met a closed day (sql/0015 `check_event_days_open`, SQLSTATE
    /// MR001): the transaction is rolled back and written through the closed-day path.
    var isClosedEventDay: Bool {
        sqlState == .eventDayClosed
    }
}

extension SQLState {
    /// menurank's own code (sql/0015): the events of a closed day were written on the open-day path.
    static let eventDayClosed: SQLState = "MR001"
}
