extension PostgresConnection {
    /// Runs `body` inside `BEGIN` … `COMMIT` and returns its value.
    ///
    /// The four steps keep their errors apart:
    /// - `BEGIN` fails: its error is thrown and `body` does not run.
    /// - `body` throws: the transaction is rolled back and the ORIGINAL error is rethrown, even
    ///   when the `ROLLBACK` fails too (the connection is then marked dead, so a pool drops it).
    /// - `body` returns but a statement inside it failed (its error was caught): the
    ///   transaction is rolled back and a `.transaction` error is thrown, never a silent
    ///   "COMMIT" that PostgreSQL turns into a rollback.
    /// - `COMMIT` fails (for example a deferred constraint or a serialization failure): its
    ///   error is thrown; PostgreSQL has rolled the transaction back.
    ///
    /// Transactions do not nest: calling this inside a transaction throws `.transaction`.
    @discardableResult
    public func withTransaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if isInTransaction {
            throw PostgresError(kind: .transaction, message: "withTransaction called inside an open transaction")
        }
        try execute(unsafeSQL: "BEGIN")
        let value: T
        do {
            value = try body(self)
        } catch {
            rollbackKeepingError()
            throw error
        }
        if transactionFailed {
            rollbackKeepingError()
            throw PostgresError(
                kind: .transaction,
                message: "a statement inside the transaction failed and its error was caught; the transaction was rolled back",
                sql: "COMMIT")
        }
        try execute(unsafeSQL: "COMMIT")
        return value
    }

    /// Rolls back; if that fails the connection cannot be trusted any more and is marked dead.
    func rollbackKeepingError() {
        do {
            try execute(unsafeSQL: "ROLLBACK")
        } catch {
            isPoisoned = true
        }
    }
}
