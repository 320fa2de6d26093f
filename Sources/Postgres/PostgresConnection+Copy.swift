import CLibPQ

extension PostgresConnection {
    /// Streams rows into `COPY … FROM STDIN` (text format) and returns the number of rows the
    /// server stored.
    ///
    /// ```swift
    /// try conn.copyIn("COPY events (app_id, event_id, time) FROM STDIN") { writer in
    ///     for event in events {
    ///         try writer.append(event.appID)
    ///         try writer.append(event.id)
    ///         try writer.append(event.time)
    ///         try writer.endRow()
    ///     }
    /// }
    /// ```
    ///
    /// When `body` throws, the COPY is aborted (nothing is stored) and the body's error is
    /// rethrown. Rows the server rejects (bad values, a constraint) fail the whole COPY with
    /// the server's error.
    /// - Parameters:
    ///   - query: the COPY statement; it cannot have binds (use `\(identifier:)` for names).
    ///   - chunkSize: bytes buffered before each `PQputCopyData`.
    /// - Throws: `PostgresError` (`.query`, `.copy`, `.connection`, `.encoding`) or the body's error.
    @discardableResult
    public func copyIn(
        _ query: PostgresQuery, chunkSize: Int = 256 * 1024, _ body: (inout CopyWriter) throws -> Void
    ) throws -> Int {
        let sql = try withResult(of: query, accepting: [PGRES_COPY_IN]) { _, sql in sql }
        var writer = CopyWriter(connection: self, chunkSize: max(chunkSize, 1024), sql: sql)
        do {
            try body(&writer)
            if writer.fieldCount > 0 {
                throw PostgresError(
                    kind: .copy, message: "COPY row \(writer.rowCount + 1) was not ended with endRow()", sql: sql)
            }
            try writer.flush()
        } catch {
            _ = PQputCopyEnd(handle, "COPY aborted by the client")
            while let result = PQgetResult(handle) { PQclear(result) }
            throw error
        }
        return try finishCopy(sql: sql)
    }

    /// Ends a COPY whose data was all sent, and returns the number of rows the server stored.
    func finishCopy(sql: String) throws -> Int {
        guard PQputCopyEnd(handle, nil) == 1 else {
            var failure = self.error(from: nil, sql: sql)
            if failure.kind == .query { failure.kind = .copy }
            throw failure
        }
        var stored = 0
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                stored = Self.affectedRows(result)
            } else if failure == nil {
                failure = self.error(from: result, sql: sql)
            }
        }
        if let failure { throw failure }
        return stored
    }
}
