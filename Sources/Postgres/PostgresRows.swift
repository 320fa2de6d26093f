import CLibPQ

/// The rows of a result, copied out of libpq into one compact buffer.
public struct PostgresRows: RandomAccessCollection, Sendable {
    /// Cells stored row by row: start offset into `bytes`, length (-1 for NULL).
    final class Storage: Sendable {
        let columns: [PostgresColumn]
        let sql: String
        let bytes: [UInt8]
        let starts: [Int]
        let lengths: [Int32]

        init(columns: [PostgresColumn], sql: String, bytes: [UInt8], starts: [Int], lengths: [Int32]) {
            self.columns = columns
            self.sql = sql
            self.bytes = bytes
            self.starts = starts
            self.lengths = lengths
        }
    }

    let storage: Storage
    public let count: Int

    init(copying result: OpaquePointer, sql: String) {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { column in
            PostgresColumn(
                name: String(cString: PQfname(result, Int32(column))),
                dataType: PostgresDataType(oid: PQftype(result, Int32(column))))
        }
        var total = 0
        for row in 0..<rowCount {
            for column in 0..<columnCount { total += Int(PQgetlength(result, Int32(row), Int32(column))) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        var starts: [Int] = []
        starts.reserveCapacity(rowCount * columnCount)
        var lengths: [Int32] = []
        lengths.reserveCapacity(rowCount * columnCount)
        for row in 0..<Int32(rowCount) {
            for column in 0..<Int32(columnCount) {
                starts.append(bytes.count)
                if PQgetisnull(result, row, column) != 0 {
                    lengths.append(-1)
                    continue
                }
                let length = PQgetlength(result, row, column)
                lengths.append(length)
                if let value = PQgetvalue(result, row, column) {
                    value.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { pointer in
                        bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: Int(length)))
                    }
                }
            }
        }
        storage = Storage(columns: columns, sql: sql, bytes: bytes, starts: starts, lengths: lengths)
        count = rowCount
    }

    /// The result's columns, in order.
    public var columns: [PostgresColumn] { storage.columns }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> PostgresRow {
        precondition(position >= 0 && position < count, "row index out of range")
        return PostgresRow(storage: storage, row: position)
    }
}
