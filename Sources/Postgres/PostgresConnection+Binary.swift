import CLibPQ

extension PostgresConnection {
    /// Runs one statement with its binds, asks for its result in binary (each value in its type's
    /// send format, as a binary COPY sends it) and hands each row to `body`, read in place from
    /// libpq's result: for many rows whose values are cheaper to take as bytes than as text (an
    /// `hll` sketch arrives as its stored bytes, an integer as 4 or 8 bytes). Unlike
    /// `copyOutBinary` it takes binds; like `query` it waits for the whole result first. Returns
    /// the number of rows.
    ///
    /// ```swift
    /// try conn.queryBinary("SELECT n, users FROM t WHERE app_id = \(appID)") { row in
    ///     total += try row.int64(0) ?? 0
    ///     if let sketch = row.rawBytes(1) { ... }
    /// }
    /// ```
    /// - Throws: `PostgresError` (`.query`, `.connection`, `.encoding`, `.decoding` from the row
    ///   accessors) or the body's error.
    @discardableResult
    public func queryBinary(_ query: PostgresQuery, _ body: (borrowing BinaryCopyRow) throws -> Void) throws -> Int {
        var rows = 0
        return try queryBinary(query, { row in
            rows += 1
            try body(row)
        }, then: { rows })
    }

    /// `queryBinary`, then `finish` while the result is still held: the bytes the rows handed out
    /// (`rawBytes`) stay valid until `finish` returns, so a caller can note where values lie and
    /// read them there afterwards, in any order or on other threads, without copying them.
    public func queryBinary<T>(_ query: PostgresQuery, _ body: (borrowing BinaryCopyRow) throws -> Void,
                               then finish: () throws -> T) throws -> T
    {
        try withResult(of: query, accepting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK], binaryResults: true) { result, _ in
            let rowCount = Int(PQntuples(result))
            let fieldCount = Int(PQnfields(result))
            var values = [UnsafeRawPointer](repeating: UnsafeRawPointer(bitPattern: 1)!, count: fieldCount)
            var lengths = [Int32](repeating: -1, count: fieldCount)
            for row in 0..<rowCount {
                for field in 0..<fieldCount {
                    if PQgetisnull(result, Int32(row), Int32(field)) != 0 {
                        lengths[field] = -1
                    } else {
                        lengths[field] = PQgetlength(result, Int32(row), Int32(field))
                        values[field] = UnsafeRawPointer(PQgetvalue(result, Int32(row), Int32(field))!)
                    }
                }
                try values.withUnsafeBufferPointer { values in
                    try lengths.withUnsafeBufferPointer { lengths in
                        try body(BinaryCopyRow(values: values, lengths: lengths, number: row + 1))
                    }
                }
            }
            return try finish()
        }
    }
}
