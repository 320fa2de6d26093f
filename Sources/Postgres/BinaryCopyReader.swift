import CLibPQ

/// One row in the types' binary send format (network byte order), as `copyOutBinary` (a row of
/// `COPY … TO STDOUT (FORMAT binary)`) and `queryBinary` (a row of a result asked for in binary)
/// hand it to their body, read in place from libpq's buffer. Valid only inside the body's call;
/// copy out what you keep.
///
/// Each accessor takes the field's index and must match the column's type exactly (`int2`,
/// `int4`, `int8`, `uuid`, or raw bytes for `bytea`, `text` and other types sent as their bytes);
/// a field of another width is a `.decoding` error, never a misread.
///
/// Fields go by position, never by name: COPY's binary format carries no column names, and these
/// rows are the hot paths (a day's events read by the rollup, a window's rollup parts), where a
/// lookup by name for each field of each row would cost about as much as decoding it. Every other
/// result is a `PostgresRow`, read by column name (`decode(_:column:)`).
public struct BinaryCopyRow: ~Copyable {

    /// Per field, where its value starts and its length (-1 for NULL).
    let values: UnsafeBufferPointer<UnsafeRawPointer>
    let lengths: UnsafeBufferPointer<Int32>
    /// The row's number in the COPY or the result, from 1.
    public let number: Int

    public var fieldCount: Int { values.count }

    public func isNull(_ field: Int) -> Bool { lengths[field] < 0 }

    /// An `int2` field, nil when NULL.
    public func int16(_ field: Int) throws(PostgresError) -> Int16? {
        guard try width(field, 2) else { return nil }
        return Int16(bitPattern: UInt16(bigEndian: values[field].loadUnaligned(as: UInt16.self)))
    }

    /// An `int4` field, nil when NULL.
    public func int32(_ field: Int) throws(PostgresError) -> Int32? {
        guard try width(field, 4) else { return nil }
        return Int32(bitPattern: UInt32(bigEndian: values[field].loadUnaligned(as: UInt32.self)))
    }

    /// An `int8` field, nil when NULL.
    public func int64(_ field: Int) throws(PostgresError) -> Int64? {
        guard try width(field, 8) else { return nil }
        return Int64(bitPattern: UInt64(bigEndian: values[field].loadUnaligned(as: UInt64.self)))
    }

    /// A `uuid` field as its two big-endian halves, nil when NULL.
    public func uuid(_ field: Int) throws(PostgresError) -> (high: UInt64, low: UInt64)? {
        guard try width(field, 16) else { return nil }
        return (UInt64(bigEndian: values[field].loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: values[field].loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// A field's bytes as sent (`bytea`, `text` as UTF-8, …), nil when NULL.
    public func bytes(_ field: Int) -> [UInt8]? {
        rawBytes(field).map { Array($0) }
    }

    /// A field's bytes in place, nil when NULL: valid only inside the body's call.
    public func rawBytes(_ field: Int) -> UnsafeRawBufferPointer? {
        let length = Int(lengths[field])
        guard length >= 0 else { return nil }
        return UnsafeRawBufferPointer(start: values[field], count: length)
    }

    private func width(_ field: Int, _ expected: Int32) throws(PostgresError) -> Bool {
        let length = lengths[field]
        if length < 0 { return false }
        guard length == expected else {
            throw PostgresError(kind: .decoding,
                                message: "binary row \(number), field \(field + 1): \(length) bytes, expected \(expected)")
        }
        return true
    }
}

/// Splits the byte stream of a binary COPY into rows, whatever its chunking: the 19-byte header
/// (signature, flags, extension area), then per row a 16-bit field count and each field as a
/// 32-bit length (-1 for NULL) and its bytes, then the trailer (a field count of -1). libpq hands
/// out one CopyData message at a time; PostgreSQL sends one row per message, but nothing here
/// relies on it (a row split over messages waits in `pending` for the rest).
struct BinaryCopyParser {
    static let signature: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]

    private var pending: [UInt8] = []
    private var sawHeader = false
    private(set) var sawTrailer = false
    private(set) var rows = 0
    private var values: [UnsafeRawPointer] = []
    private var lengths: [Int32] = []
    let sql: String

    init(sql: String) { self.sql = sql }

    /// Parses `chunk` (after what is pending) and calls `body` for each complete row.
    mutating func consume(_ chunk: UnsafeRawBufferPointer,
                          _ body: (borrowing BinaryCopyRow) throws -> Void) throws {
        if pending.isEmpty {
            let used = try parse(chunk, body)
            if used < chunk.count { pending.append(contentsOf: chunk[used...]) }
        } else {
            pending.append(contentsOf: chunk)
            let bytes = pending
            let used = try bytes.withUnsafeBytes { try parse($0, body) }
            pending.removeFirst(used)
        }
    }

    /// Throws when the stream ended inside a row or without its trailer.
    func finish() throws(PostgresError) {
        guard sawTrailer, pending.isEmpty else {
            throw PostgresError(kind: .copy, message: "binary COPY data ended early (after \(rows) rows)", sql: sql)
        }
    }

    /// Parses whole rows from the start of `buffer`; returns the bytes used.
    private mutating func parse(_ buffer: UnsafeRawBufferPointer, _ body: (borrowing BinaryCopyRow) throws -> Void) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var at = 0
        if !sawHeader {
            guard buffer.count >= 19 else { return 0 }
            guard Array(buffer[0..<11]) == Self.signature else {
                throw PostgresError(kind: .copy, message: "not a binary COPY stream (bad signature)", sql: sql)
            }
            let extensionLength = Int(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: 15, as: UInt32.self)))
            guard buffer.count >= 19 + extensionLength else { return 0 }
            at = 19 + extensionLength
            sawHeader = true
        }
        while at + 2 <= buffer.count {
            if sawTrailer {
                throw PostgresError(kind: .copy, message: "binary COPY data after its trailer", sql: sql)
            }
            let count = Int16(bitPattern: UInt16(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
            if count == -1 {
                sawTrailer = true
                at += 2
                continue
            }
            guard count >= 0 else {
                throw PostgresError(kind: .copy, message: "binary COPY row \(rows + 1) has \(count) fields", sql: sql)
            }
            // The fields' places, written in place into buffers as long as the widest row so far
            // (no appends per field: this runs for every field of every row).
            let fields = Int(count)
            if values.count < fields {
                values = [UnsafeRawPointer](repeating: base, count: fields)
                lengths = [Int32](repeating: -1, count: fields)
            }
            var cursor = at + 2
            var complete = true
            values.withUnsafeMutableBufferPointer { values in
                lengths.withUnsafeMutableBufferPointer { lengths in
                    for field in 0..<fields {
                        guard cursor + 4 <= buffer.count else { complete = false; break }
                        let length = Int32(bitPattern: UInt32(bigEndian: base.loadUnaligned(fromByteOffset: cursor, as: UInt32.self)))
                        cursor += 4
                        values[field] = base + cursor
                        lengths[field] = length
                        if length > 0 { cursor += Int(length) }
                        if cursor > buffer.count { complete = false; break }
                    }
                }
            }
            guard complete else { break }
            rows += 1
            try values.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengths in
                    try body(BinaryCopyRow(values: UnsafeBufferPointer(rebasing: values[0..<fields]),
                                           lengths: UnsafeBufferPointer(rebasing: lengths[0..<fields]), number: rows))
                }
            }
            at = cursor
        }
        return at
    }
}

extension PostgresConnection {
    /// Runs `COPY (SELECT …) TO STDOUT (FORMAT binary)` (or `COPY table … TO STDOUT (FORMAT
    /// binary)`) and hands each row to `body` as it arrives, without keeping the result: the
    /// cheapest way to read many rows (the server sends each value in its binary form, the client
    /// parses nothing but lengths). Returns the number of rows the server reported.
    ///
    /// ```swift
    /// try conn.copyOutBinary("COPY (SELECT id, n FROM t) TO STDOUT (FORMAT binary)") { row in
    ///     total += try row.int64(1) ?? 0
    /// }
    /// ```
    ///
    /// When `body` throws, the rest of the COPY is read and dropped (the connection stays usable
    /// inside its transaction) and the body's error is rethrown.
    /// - Parameter query: the COPY statement; COPY takes no binds, so only `\(unsafeRaw:)` values
    ///   and `\(identifier:)` names can go into it.
    /// - Throws: `PostgresError` (`.query`, `.copy`, `.connection`, `.decoding`) or the body's error.
    @discardableResult
    public func copyOutBinary(_ query: PostgresQuery, _ body: (borrowing BinaryCopyRow) throws -> Void) throws -> Int {
        let sql = try withResult(of: query, accepting: [PGRES_COPY_OUT]) { _, sql in sql }
        var parser = BinaryCopyParser(sql: sql)
        var failure: (any Error)?
        var buffer: UnsafeMutablePointer<CChar>?
        while true {
            let length = PQgetCopyData(handle, &buffer, 0)
            if length == -1 { break }
            guard length > 0, let chunk = buffer else {
                if failure == nil {
                    var error = self.error(from: nil, sql: sql)
                    if error.kind == .query { error.kind = .copy }
                    failure = error
                }
                break
            }
            defer { PQfreemem(chunk) }
            guard failure == nil else { continue }
            do {
                try parser.consume(UnsafeRawBufferPointer(start: chunk, count: Int(length)), body)
            } catch {
                failure = error
            }
        }
        var reported = 0
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                reported = Self.affectedRows(result)
            } else if failure == nil {
                failure = self.error(from: result, sql: sql)
            }
        }
        if let failure { throw failure }
        try parser.finish()
        return reported
    }
}
