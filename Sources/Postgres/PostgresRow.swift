/// One row of a `PostgresRows`.
public struct PostgresRow: Sendable {
    let storage: PostgresRows.Storage
    let row: Int

    /// The result's columns, in order.
    public var columns: [PostgresColumn] { storage.columns }

    /// True when the value at `column` is SQL NULL.
    public func isNull(at column: Int) -> Bool {
        storage.lengths[row * storage.columns.count + column] < 0
    }

    /// Decodes the value at a column index.
    /// - Throws: `PostgresError` of kind `.decoding` naming the column, its PostgreSQL type and
    ///   the Swift type, when the value is NULL and `T` is not optional, when the PostgreSQL
    ///   type does not decode as `T`, or when the value is malformed or out of `T`'s range.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, at column: Int) throws -> T {
        let columns = storage.columns
        guard column >= 0 && column < columns.count else {
            throw PostgresError(
                kind: .decoding, message: "column index \(column) is out of range (the result has \(columns.count) columns)",
                sql: storage.sql)
        }
        let description = columns[column]
        func failure(_ reason: String) -> PostgresError {
            PostgresError(
                kind: .decoding,
                message: "column \"\(description.name)\" (index \(column)) of PostgreSQL type \(description.dataType) \(reason) Swift type \(T.self)",
                column: description.name, sql: storage.sql)
        }
        let cell = row * columns.count + column
        let length = Int(storage.lengths[cell])
        if length < 0 {
            guard let null = T.postgresNull else { throw failure("is NULL, which cannot be decoded as non-optional") }
            return null
        }
        guard T.canDecode(description.dataType) else { throw failure("cannot be decoded as") }
        let start = storage.starts[cell]
        let decoded = storage.bytes.withUnsafeBufferPointer { bytes in
            T(postgresText: UnsafeBufferPointer(rebasing: bytes[start..<start + length]), type: description.dataType)
        }
        guard let decoded else { throw failure("holds a malformed or out-of-range value for") }
        return decoded
    }

    /// Decodes the value of the first column with this name.
    /// - Throws: `PostgresError` of kind `.decoding`, also when no column has that name.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, column name: String) throws -> T {
        guard let index = storage.columns.firstIndex(where: { $0.name == name }) else {
            throw PostgresError(
                kind: .decoding,
                message: "no column named \"\(name)\" (columns: \(storage.columns.map(\.name).joined(separator: ", ")))",
                column: name, sql: storage.sql)
        }
        return try decode(T.self, at: index)
    }
}
