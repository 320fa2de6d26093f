import CLibPQ

extension PostgresConnection {
    /// Runs one statement and returns its rows, copied out of libpq.
    /// - Throws: `PostgresError` (`.query`, `.connection`, `.encoding`).
    public func query(_ query: PostgresQuery) throws -> PostgresRows {
        try withResult(of: query, accepting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK]) { result, sql in
            PostgresRows(copying: result, sql: sql)
        }
    }

    /// Runs one statement and returns the number of rows it affected (0 when it reports none).
    /// - Throws: `PostgresError` (`.query`, `.connection`, `.encoding`).
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try withResult(of: query, accepting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK]) { result, _ in
            Self.affectedRows(result)
        }
    }

    /// Runs trusted SQL that may hold several statements separated by `;` (a migration file),
    /// through libpq's simple query protocol. No binds; stops at the first failing statement.
    /// - Throws: `PostgresError` (`.query`, `.connection`).
    public func execute(unsafeSQL sql: String) throws {
        guard let result = PQexec(handle, sql) else { throw error(from: nil, sql: sql) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            if status == PGRES_COPY_IN || status == PGRES_COPY_OUT {
                leaveCopyState(status)
                throw PostgresError(kind: .query, message: "COPY is not supported by execute(unsafeSQL:); use copyIn", sql: sql)
            }
            throw error(from: result, sql: sql)
        }
    }

    /// Ends a COPY the caller did not ask for, and reads the remaining results.
    func leaveCopyState(_ status: ExecStatusType) {
        if status == PGRES_COPY_IN {
            _ = PQputCopyEnd(handle, "COPY FROM STDIN is only supported through copyIn")
        } else {
            var buffer: UnsafeMutablePointer<CChar>?
            while PQgetCopyData(handle, &buffer, 0) >= 0 {
                if let buffer { PQfreemem(buffer) }
            }
        }
        while let next = PQgetResult(handle) { PQclear(next) }
    }

    static func affectedRows(_ result: OpaquePointer) -> Int {
        guard let tuples = PQcmdTuples(result), tuples.pointee != 0 else { return 0 }
        return Int(String(cString: tuples)) ?? 0
    }

    /// Sends `query` with its binds, checks the result status and hands the result to `body`,
    /// clearing it afterwards. `binaryResults` asks for the values in binary instead of text.
    func withResult<T>(
        of query: PostgresQuery, accepting accepted: [ExecStatusType], binaryResults: Bool = false,
        _ body: (OpaquePointer, String) throws -> T
    ) throws -> T {
        let sql = try query.render(quoting: escapeIdentifier)
        var encoder = PostgresTextEncoder(capacity: 256, escapesForCopy: false)
        var offsets: [Int] = []
        offsets.reserveCapacity(query.binds.count)
        var types: [UInt32] = []
        types.reserveCapacity(query.binds.count)
        for (index, bind) in query.binds.enumerated() {
            types.append(type(of: bind).postgresDataType.oid)
            let start = encoder.bytes.count
            encoder.wroteNull = false
            do throws(PostgresError) {
                try bind.encode(into: &encoder)
            } catch {
                var located = error
                located.message = "parameter $\(index + 1): \(error.message)"
                located.sql = sql
                throw located
            }
            if encoder.wroteNull {
                offsets.append(-1)
            } else {
                encoder.bytes.append(0)
                offsets.append(start)
            }
        }
        let result: OpaquePointer? = encoder.bytes.withUnsafeBufferPointer { buffer in
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard offset >= 0, let base = buffer.baseAddress else { return nil }
                return UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self)
            }
            return PQexecParams(handle, sql, Int32(values.count), types, values, nil, nil, binaryResults ? 1 : 0)
        }
        guard let result else { throw error(from: nil, sql: sql) }
        defer { PQclear(result) }
        guard accepted.contains(PQresultStatus(result)) else {
            let status = PQresultStatus(result)
            if status == PGRES_COPY_IN || status == PGRES_COPY_OUT {
                leaveCopyState(status)
                throw PostgresError(kind: .query, message: "COPY with STDIN/STDOUT needs copyIn", sql: sql)
            }
            throw error(from: result, sql: sql)
        }
        return try body(result, sql)
    }
}
