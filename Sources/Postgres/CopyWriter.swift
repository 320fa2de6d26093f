import CLibPQ

/// Writes the rows of a `COPY … FROM STDIN` in PostgreSQL's text format.
///
/// Fields are written straight into one reusable buffer (integers, UUIDs and timestamps
/// without going through `String`), escaped for COPY (backslash, tab, newline, carriage
/// return; NULL as `\N`), and sent with `PQputCopyData` whenever the buffer passes the chunk
/// size. Write a row's fields in column order with `append`, then call `endRow()`.
///
/// NUL bytes: PostgreSQL text cannot hold U+0000. `append` of a string (or a string array)
/// holding one throws a `PostgresError` of kind `.encoding` naming the row and column, and
/// drops the fields of that row written so far: catch it inside the body to skip the row,
/// or let it propagate to abort the whole COPY (nothing is stored).
public struct CopyWriter {
    var encoder: PostgresTextEncoder
    let connection: PostgresConnection
    let chunkSize: Int
    let sql: String
    /// Where the current row starts in the buffer.
    var rowStart = 0
    /// Fields written so far in the current row.
    var fieldCount = 0
    /// Rows ended so far.
    public private(set) var rowCount = 0

    init(connection: PostgresConnection, chunkSize: Int, sql: String) {
        self.connection = connection
        self.chunkSize = chunkSize
        self.sql = sql
        encoder = PostgresTextEncoder(capacity: chunkSize + chunkSize / 4, escapesForCopy: true)
    }

    /// Appends the next field of the current row.
    /// - Throws: `PostgresError` of kind `.encoding` (a NUL byte in text); the row is dropped.
    public mutating func append(_ value: some PostgresEncodable) throws {
        if fieldCount > 0 { encoder.appendPlain(0x09) }
        do throws(PostgresError) {
            try value.encode(into: &encoder)
        } catch {
            var located = error
            located.message = "COPY row \(rowCount + 1), column \(fieldCount + 1): \(error.message); the row was dropped"
            located.sql = sql
            discardRow()
            throw located
        }
        fieldCount += 1
    }

    /// Appends NULL as the next field of the current row.
    public mutating func appendNull() {
        if fieldCount > 0 { encoder.appendPlain(0x09) }
        encoder.appendNull()
        fieldCount += 1
    }

    /// Ends the current row; sends the buffer when it has reached the chunk size.
    /// - Throws: `PostgresError` of kind `.copy` when sending fails.
    public mutating func endRow() throws {
        encoder.appendPlain(0x0A)
        rowCount += 1
        fieldCount = 0
        if encoder.bytes.count >= chunkSize { try flush() }
        rowStart = encoder.bytes.count
    }

    /// Forgets the fields written so far for the current row.
    public mutating func discardRow() {
        encoder.bytes.removeSubrange(rowStart...)
        fieldCount = 0
    }

    /// Sends what the buffer holds.
    mutating func flush() throws {
        guard !encoder.bytes.isEmpty else { return }
        let status = encoder.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                PQputCopyData(connection.handle, chars.baseAddress, Int32(chars.count))
            }
        }
        guard status == 1 else {
            var failure = connection.error(from: nil, sql: sql)
            if failure.kind == .query { failure.kind = .copy }
            throw failure
        }
        encoder.bytes.removeAll(keepingCapacity: true)
        rowStart = 0
    }
}
