import CLibPQ

/// Writes the rows of a `COPY … FROM STDIN (FORMAT binary)`: PostgreSQL's binary COPY format,
/// which the server stores without parsing text (cheaper on its side than the text format; the
/// ingestion path uses it for every event).
///
/// The stream is the 19-byte header, then per row a 16-bit field count and each field as a 32-bit
/// length (-1 for NULL) followed by the value in the type's binary send format (network byte
/// order), then the trailer -1. Each append names the exact column type it must be copied into:
/// `int2`, `int4`, `int8`, `uuid`, `date`, `timestamptz`, one-dimensional `int4[]` and `int8[]`,
/// `text`, and raw bytes for types whose binary form is their bytes (`bytea`, and `hll`, whose
/// receive function takes the stored bytes); a value copied into a column of another type is
/// refused by the server and fails the COPY.
///
/// Begin each row with `beginRow(fields:)`, append exactly that many fields in column order, then
/// `endRow()`. Rows are buffered and sent with `PQputCopyData` whenever the buffer passes the chunk
/// size.
public struct BinaryCopyWriter {
    let connection: PostgresConnection
    let chunkSize: Int
    let sql: String
    var bytes: [UInt8] = []
    /// Fields announced and written for the current row.
    var announced = 0
    var written = 0
    var inRow = false
    /// Rows ended so far.
    public private(set) var rowCount = 0

    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// PostgreSQL's epoch (2000-01-01) in days and microseconds since 1970-01-01.
    static let epochDays: Int32 = 10_957
    static let epochMicros: Int64 = 946_684_800_000_000

    init(connection: PostgresConnection, chunkSize: Int, sql: String) {
        self.connection = connection
        self.chunkSize = chunkSize
        self.sql = sql
        bytes.reserveCapacity(chunkSize + chunkSize / 4)
        bytes.append(contentsOf: Self.header)
    }

    /// Starts a row of `fields` fields.
    public mutating func beginRow(fields: Int) {
        precondition(!inRow, "beginRow before the previous row's endRow")
        inRow = true
        announced = fields
        written = 0
        put(UInt16(fields))
    }

    public mutating func appendNull() {
        written += 1
        put(UInt32(bitPattern: -1))
    }

    /// An `int2` field (NULL when nil).
    public mutating func append(_ value: Int16?) {
        guard let value else { return appendNull() }
        written += 1
        put(UInt32(2))
        put(UInt16(bitPattern: value))
    }

    /// An `int4` field (NULL when nil).
    public mutating func append(_ value: Int32?) {
        guard let value else { return appendNull() }
        written += 1
        put(UInt32(4))
        put(UInt32(bitPattern: value))
    }

    /// An `int8` field (NULL when nil).
    public mutating func append(_ value: Int64?) {
        guard let value else { return appendNull() }
        written += 1
        put(UInt32(8))
        put(UInt64(bitPattern: value))
    }

    /// A `uuid` field: its 16 bytes as two big-endian halves.
    public mutating func appendUUID(high: UInt64, low: UInt64) {
        written += 1
        put(UInt32(16))
        put(high)
        put(low)
    }

    /// A `date` field from days since 1970-01-01.
    public mutating func appendDate(daysSince1970 days: Int32) {
        written += 1
        put(UInt32(4))
        put(UInt32(bitPattern: days &- Self.epochDays))
    }

    /// A `timestamptz` field from microseconds since 1970-01-01 00:00 UTC.
    public mutating func appendTimestamp(microsSince1970 micros: Int64) {
        written += 1
        put(UInt32(8))
        put(UInt64(bitPattern: micros &- Self.epochMicros))
    }

    /// A field of raw bytes: a `bytea`, or any type whose binary form is its stored bytes (`hll`).
    public mutating func appendBytes(_ value: some Collection<UInt8>) {
        written += 1
        put(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// A `text` field: its UTF-8 bytes.
    public mutating func append(_ value: String) {
        var value = value
        value.withUTF8 { appendBytes($0) }
    }

    /// An `int4[]` field: a one-dimensional array (empty when `values` is), no NULL elements.
    public mutating func appendArray(_ values: [Int32]) {
        putArrayHeader(count: values.count, elementWidth: 4, elementOID: 23)
        for value in values {
            put(UInt32(4))
            put(UInt32(bitPattern: value))
        }
    }

    /// An `int8[]` field: a one-dimensional array (empty when `values` is), no NULL elements.
    public mutating func appendArray(_ values: [Int64]) {
        putArrayHeader(count: values.count, elementWidth: 8, elementOID: 20)
        for value in values {
            put(UInt32(8))
            put(UInt64(bitPattern: value))
        }
    }

    /// The field length and array header of `array_send`: dimensions (0 for an empty array), a
    /// has-NULLs flag, the element type, then per dimension its length and lower bound (1).
    private mutating func putArrayHeader(count: Int, elementWidth: Int, elementOID: UInt32) {
        written += 1
        let header = count == 0 ? 12 : 20
        put(UInt32(header + count * (4 + elementWidth)))
        put(UInt32(count == 0 ? 0 : 1))
        put(UInt32(0))
        put(elementOID)
        if count > 0 {
            put(UInt32(count))
            put(UInt32(1))
        }
    }

    /// Ends the current row; sends the buffer when it has reached the chunk size.
    /// - Throws: `PostgresError` of kind `.copy` when the row's field count is not the one announced
    ///   or sending fails.
    public mutating func endRow() throws(PostgresError) {
        guard inRow, written == announced else {
            throw PostgresError(kind: .copy, message: "binary COPY row \(rowCount + 1) has \(written) fields, not \(announced)",
                                sql: sql)
        }
        inRow = false
        rowCount += 1
        if bytes.count >= chunkSize { try flush() }
    }

    /// Sends what the buffer holds.
    mutating func flush() throws(PostgresError) {
        guard !bytes.isEmpty else { return }
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                PQputCopyData(connection.handle, chars.baseAddress, Int32(chars.count))
            }
        }
        guard status == 1 else {
            var failure = connection.error(from: nil, sql: sql)
            if failure.kind == .query { failure.kind = .copy }
            throw failure
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// The trailer, then everything left.
    mutating func finish() throws(PostgresError) {
        put(UInt16(0xFFFF))
        try flush()
    }

    private mutating func put(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    private mutating func put(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func put(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension PostgresConnection {
    /// Streams rows into `COPY … FROM STDIN (FORMAT binary)` and returns the number of rows the
    /// server stored. Like `copyIn`: when `body` throws, the COPY is aborted (nothing is stored)
    /// and the body's error is rethrown.
    @discardableResult
    public func copyInBinary(
        _ query: PostgresQuery, chunkSize: Int = 256 * 1024, _ body: (inout BinaryCopyWriter) throws -> Void
    ) throws -> Int {
        let sql = try withResult(of: query, accepting: [PGRES_COPY_IN]) { _, sql in sql }
        var writer = BinaryCopyWriter(connection: self, chunkSize: max(chunkSize, 1024), sql: sql)
        do {
            try body(&writer)
            if writer.inRow {
                throw PostgresError(kind: .copy, message: "binary COPY row \(writer.rowCount + 1) was not ended with endRow()",
                                    sql: sql)
            }
            try writer.finish()
        } catch {
            _ = PQputCopyEnd(handle, "COPY aborted by the client")
            while let result = PQgetResult(handle) { PQclear(result) }
            throw error
        }
        return try finishCopy(sql: sql)
    }
}
