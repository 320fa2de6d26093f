import Postgres
import TestSupport
import Testing

/// `queryBinary`: a bound statement whose result comes in binary, read through the same row
/// accessors as a binary COPY: every accessor against values the server spells, NULLs, binds,
/// `rawBytes` in place, a field read as the wrong type, a body that throws, and a server error;
/// the connection stays usable after each.
@Suite(TestDatabase.enabled) struct BinaryQueryTests {
    @Test func everyAccessorReadsWhatTheServerSent() throws {
        try TestDatabase.withSchema(prefix: "binquery") { schema in
            let conn = try schema.connect()
            try conn.execute("create table t (n int4, s int2, i int4, l int8, u uuid, x text, b bytea)")
            try conn.execute("""
                insert into t values
                  (1, -32768, -2147483648, -9223372036854775808, '0193a4c2-6f1e-7c3a-9d2b-4e5f60718293', 'héllo', '\\x00ff10'),
                  (2, 32767, 2147483647, 9223372036854775807, 'ffffffff-ffff-ffff-ffff-ffffffffffff', '', ''),
                  (3, null, null, null, null, null, null),
                  (4, 1, 1, 1, null, 'not read', '\\x01')
                """)
            var rows: [String] = []
            let count = try conn.queryBinary("select s, i, l, u, x, b from t where n <= \(Int32(3)) order by n") { row in
                #expect(row.fieldCount == 6)
                var fields: [String] = []
                fields.append(try row.int16(0).map { String($0) } ?? "NULL")
                fields.append(try row.int32(1).map { String($0) } ?? "NULL")
                fields.append(try row.int64(2).map { String($0) } ?? "NULL")
                fields.append(try row.uuid(3).map { String($0.high, radix: 16) + "/" + String($0.low, radix: 16) } ?? "NULL")
                fields.append(row.rawBytes(4).map { String(decoding: $0, as: UTF8.self) } ?? "NULL")
                fields.append(row.bytes(5).map { $0.map { String($0) }.joined(separator: ",") } ?? "NULL")
                #expect(row.isNull(5) == (row.number == 3))
                rows.append("\(row.number): " + fields.joined(separator: " "))
            }
            #expect(count == 3)
            #expect(rows == [
                "1: -32768 -2147483648 -9223372036854775808 193a4c26f1e7c3a/9d2b4e5f60718293 héllo 0,255,16",
                "2: 32767 2147483647 9223372036854775807 ffffffffffffffff/ffffffffffffffff  ",
                "3: NULL NULL NULL NULL NULL NULL",
            ])
        }
    }

    @Test func manyRowsWithBindsAndAnEmptyResult() throws {
        try TestDatabase.withSchema(prefix: "binquery") { schema in
            let conn = try schema.connect()
            var sum: Int64 = 0
            let count = try conn.queryBinary("select g::int8 from generate_series(1, \(100_000)) g where g % \(Int32(2)) = 0") { row in
                sum += try row.int64(0)!
            }
            #expect(count == 50_000 && sum == 2_500_050_000)
            #expect(try conn.queryBinary("select 1 where \(false)") { _ in Issue.record("no rows expected") } == 0)
        }
    }

    @Test func failuresLeaveTheConnectionUsable() throws {
        struct Stop: Error {}
        try TestDatabase.withSchema(prefix: "binquery") { schema in
            let conn = try schema.connect()
            #expect(throws: PostgresError.self) {
                try conn.queryBinary("select 1::int8") { row in _ = try row.int32(0) }
            }
            var seen = 0
            #expect(throws: Stop.self) {
                try conn.queryBinary("select g from generate_series(1, 100) g") { _ in
                    seen += 1
                    if seen == 10 { throw Stop() }
                }
            }
            #expect(seen == 10)
            #expect(throws: PostgresError.self) {
                try conn.queryBinary("select 1 / \(Int32(0))") { _ in Issue.record("no rows expected") }
            }
            #expect(try conn.query("select 41 + 1").first?.decode(Int.self, at: 0) == 42)
        }
    }
}
