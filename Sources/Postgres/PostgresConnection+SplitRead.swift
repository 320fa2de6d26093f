import Locking

extension PostgresConnection {
    /// Two reads at once on two connections to the same database: `mine` on this connection, on
    /// the calling thread, and `theirs` on `helper`, on a thread of its own (`ForkJoin.both`). Each
    /// runs in a REPEATABLE READ, READ ONLY transaction of its own, so what one side reads belongs
    /// to one moment; the two sides may see different moments when a write commits in between, as
    /// two statements would.
    ///
    /// For a read that splits into halves of about the same cost (the window's totals of the
    /// nightly run: the element types with even ids here, the odd ones on the helper), so the
    /// server works on two cores while the client waits once.
    ///
    /// Both sides finish before this returns or throws, so neither connection is left in a
    /// transaction or in the middle of a query. Errors: `mine`'s first, then `theirs`'.
    /// - Precondition: neither connection is in a transaction (the snapshots are the sides' own);
    ///   the helper is not used by anyone else meanwhile.
    /// - Throws: `PostgresError` with `.transaction` when one is in a transaction; otherwise
    ///   whatever a side throws.
    @available(*, noasync, message: "blocks on libpq: call it from a thread of your own (BlockingThread.run)")
    public func splitRead<Mine, Theirs: Sendable>(
        _ mine: (PostgresConnection) throws -> Mine,
        alongside helper: PostgresConnection,
        _ theirs: @escaping @Sendable (PostgresConnection) throws -> Theirs
    ) throws -> (Mine, Theirs) {
        guard !isInTransaction, !helper.isInTransaction, helper !== self else {
            throw PostgresError(kind: .transaction,
                                message: "splitRead needs two connections, neither of them in a transaction")
        }
        return try ForkJoin.both({ try self.readSnapshot(mine) }, alongside: { try helper.readSnapshot(theirs) })
    }

    /// `body` in a REPEATABLE READ, READ ONLY transaction.
    func readSnapshot<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withTransaction { connection in
            try connection.execute(unsafeSQL: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try body(connection)
        }
    }
}

extension PostgresConnection {
    /// `body` in a REPEATABLE READ, READ ONLY transaction that reads `snapshot`, a snapshot another
    /// transaction exported (`pg_export_snapshot()`) and keeps open meanwhile: this connection then
    /// sees exactly what that transaction's statement saw (its own uncommitted writes aside), so
    /// one read can be shared out over two connections and still be of one moment.
    ///
    /// - Parameter snapshot: the identifier `pg_export_snapshot()` returned (hexadecimal digits and
    ///   dashes, checked here: `SET TRANSACTION SNAPSHOT` takes no binds).
    /// - Throws: `PostgresError` with `.transaction` when the connection is in a transaction
    ///   or the identifier is malformed; the server's error when the snapshot cannot be imported
    ///   (its transaction ended, say); whatever `body` throws.
    public func readSnapshot<T>(_ snapshot: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard !snapshot.isEmpty, snapshot.utf8.count <= 64,
              snapshot.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || $0 == 0x2D })
        else {
            throw PostgresError(kind: .transaction, message: "not an exported snapshot identifier")
        }
        return try withTransaction { connection in
            try connection.execute(unsafeSQL: """
                SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET TRANSACTION SNAPSHOT '\(snapshot)'
                """)
            return try body(connection)
        }
    }
}
