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

extension PostgresError {
    /// A write on the open-day path met a day holding tombstones of `users forget` (sql/0017
    /// `check_days_unforgotten`, SQLSTATE MR003): it is written again through the staged path.
    var isForgottenEventDay: Bool {
        sqlState == .forgottenEventDay
    }

    /// A write's app was deleted (sql/0017 `check_apps_live`, SQLSTATE MR002).
    var isDeletedApp: Bool {
        sqlState == .appDeleted
    }
}

extension SQLState {
    /// menurank's own code (sql/0017): the app of a write was deleted.
    static let appDeleted: SQLState = "MR002"
    /// menurank's own code (sql/0017): a write on the open-day path met a day with forgotten events.
    static let forgottenEventDay: SQLState = "MR003"

    /// menurank's own code (sql/0015): the events of a closed day were written on the open-day path.
    static let eventDayClosed: SQLState = "MR001"
}
