@testable import Postgres
import TestSupport
import Testing

/// COPY TO STDOUT in binary (`copyOutBinary`): every accessor against values the server spells,
/// NULLs, a stream split at every byte, a body that throws mid-way (the rest is drained and the
/// connection stays usable), a field read as the wrong type; and the array, text and raw-bytes
/// fields of `BinaryCopyWriter` read back by the server.
@Suite struct BinaryCopyParserTests {
    /// A stream of two rows (int4, int8 NULL / int8, text) and the trailer, fed in pieces of every size.
    @Test func rowsSplitAnywhereAreReassembled() throws {
        var stream = BinaryCopyParser.signature + [0, 0, 0, 0, 0, 0, 0, 0]
        func put32(_ v: UInt32) { stream += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        stream += [0, 3]; put32(4); put32(7); put32(UInt32(bitPattern: -1)); put32(2); stream += Array("ab".utf8)
        stream += [0, 3]; put32(4); put32(UInt32(bitPattern: -9)); put32(8); put32(0xFFFF_FFFF); put32(0xFFFF_FFFE)
        put32(0)
        stream += [0xFF, 0xFF]
        for piece in 1...stream.count {
            var parser = BinaryCopyParser(sql: "test")
            var seen: [String] = []
            var at = 0
            while at < stream.count {
                let end = min(at + piece, stream.count)
                try Array(stream[at..<end]).withUnsafeBytes { chunk in
                    try parser.consume(chunk) { row in
                        seen.append("\(row.number):\(try row.int32(0)!):\(try row.int64(1).map(String.init) ?? "NULL"):"
                            + String(decoding: row.bytes(2) ?? [], as: UTF8.self))
                    }
                }
                at = end
            }
            try parser.finish()
            #expect(seen == ["1:7:NULL:ab", "2:-9:-2:"], "pieces of \(piece) bytes")
        }
    }

    @Test func aStreamWithoutItsTrailerIsAnError() throws {
        var parser = BinaryCopyParser(sql: "test")
        try (BinaryCopyParser.signature + [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0]).withUnsafeBytes { chunk in
            try parser.consume(chunk) { _ in Issue.record("no row is complete") }
        }
        #expect(throws: PostgresError.self) { try parser.finish() }
    }

    @Test func aBadSignatureIsAnError() {
        var parser = BinaryCopyParser(sql: "test")
        #expect(throws: PostgresError.self) {
            try Array("PGCOPY\nXXXXXXXXXXXXXXXXXXXX".utf8).withUnsafeBytes { chunk in try parser.consume(chunk) { _ in } }
        }
    }
}

@Suite(TestDatabase.enabled) struct BinaryCopyOutTests {
    @Test func everyAccessorReadsWhatTheServerSent() throws {
        try TestDatabase.withSchema(prefix: "copyout") { schema in
            let conn = try schema.connect()
            try conn.execute("create table t (n int4, s int2, i int4, l int8, u uuid, x text, b bytea)")
            try conn.execute("""
                insert into t values
                  (1, -32768, -2147483648, -9223372036854775808, '0193a4c2-6f1e-7c3a-9d2b-4e5f60718293', 'héllo', '\\x00ff10'),
                  (2, 32767, 2147483647, 9223372036854775807, 'ffffffff-ffff-ffff-ffff-ffffffffffff', '', ''),
                  (3, null, null, null, null, null, null)
                """)
            var rows: [String] = []
            let count = try conn.copyOutBinary("copy (select s, i, l, u, x, b from t order by n) to stdout (format binary)") { row in
                #expect(row.fieldCount == 6)
                var fields: [String] = []
                let small: Int16? = try row.int16(0)
                fields.append(small.map { String($0) } ?? "NULL")
                let int: Int32? = try row.int32(1)
                fields.append(int.map { String($0) } ?? "NULL")
                let long: Int64? = try row.int64(2)
                fields.append(long.map { String($0) } ?? "NULL")
                let uuid: (high: UInt64, low: UInt64)? = try row.uuid(3)
                fields.append(uuid.map { String($0.high, radix: 16) + "/" + String($0.low, radix: 16) } ?? "NULL")
                let text: [UInt8]? = row.bytes(4)
                fields.append(text.map { String(decoding: $0, as: UTF8.self) } ?? "NULL")
                let bytes: [UInt8]? = row.bytes(5)
                fields.append(bytes.map { $0.map { String($0) }.joined(separator: ",") } ?? "NULL")
                rows.append(fields.joined(separator: " "))
            }
            #expect(count == 3)
            #expect(rows == [
                "-32768 -2147483648 -9223372036854775808 193a4c26f1e7c3a/9d2b4e5f60718293 héllo 0,255,16",
                "32767 2147483647 9223372036854775807 ffffffffffffffff/ffffffffffffffff  ",
                "NULL NULL NULL NULL NULL NULL",
            ])
        }
    }

    @Test func manyRowsAndAnEmptyResult() throws {
        try TestDatabase.withSchema(prefix: "copyout") { schema in
            let conn = try schema.connect()
            var sum: Int64 = 0
            var seen = 0
            let count = try conn.copyOutBinary("copy (select g::int8 from generate_series(1, 100000) g) to stdout (format binary)") { row in
                sum += try row.int64(0)!
                seen += 1
            }
            #expect(count == 100_000 && seen == 100_000 && sum == 5_000_050_000)
            let none = try conn.copyOutBinary("copy (select 1 where false) to stdout (format binary)") { _ in
                Issue.record("no rows expected")
            }
            #expect(none == 0)
        }
    }

    @Test func aFailingBodyLeavesTheConnectionUsable() throws {
        struct Stop: Error {}
        try TestDatabase.withSchema(prefix: "copyout") { schema in
            let conn = try schema.connect()
            try conn.withTransaction { conn in
                var seen = 0
                #expect(throws: Stop.self) {
                    try conn.copyOutBinary("copy (select g from generate_series(1, 10000) g) to stdout (format binary)") { _ in
                        seen += 1
                        if seen == 10 { throw Stop() }
                    }
                }
                #expect(seen == 10)
                let answer = try conn.query("select 41 + 1").first?.decode(Int.self, at: 0)
                #expect(answer == 42)
            }
        }
    }

    @Test func aFieldReadAsTheWrongTypeIsADecodingError() throws {
        try TestDatabase.withSchema(prefix: "copyout") { schema in
            let conn = try schema.connect()
            #expect(throws: PostgresError.self) {
                try conn.copyOutBinary("copy (select 1::int8) to stdout (format binary)") { row in _ = try row.int32(0) }
            }
            #expect(try conn.query("select 1").count == 1)
        }
    }

    @Test func aServerErrorIsThrown() throws {
        try TestDatabase.withSchema(prefix: "copyout") { schema in
            let conn = try schema.connect()
            #expect(throws: PostgresError.self) {
                try conn.copyOutBinary("copy (select 1 / (g - 3) from generate_series(1, 5) g) to stdout (format binary)") { _ in }
            }
            #expect(try conn.query("select 1").count == 1)
        }
    }

    /// The writer's text, raw-bytes and array fields, as the server reads them back.
    @Test func arraysTextAndBytesCopyIn() throws {
        try TestDatabase.withSchema(prefix: "copyout") { schema in
            let conn = try schema.connect()
            try conn.execute("create table a (n int4, x text, b bytea, i int4[] not null, l int8[] not null)")
            try conn.copyInBinary("copy a (n, x, b, i, l) from stdin (format binary)") { writer in
                writer.beginRow(fields: 5)
                writer.append(Int32(1))
                writer.append("menü 1+2")
                writer.appendBytes([0x11, 0x8B, 0x7F])
                writer.appendArray([Int32.min, 0, 7] as [Int32])
                writer.appendArray([Int64.max, -1] as [Int64])
                try writer.endRow()
                writer.beginRow(fields: 5)
                writer.append(Int32(2))
                writer.append("")
                writer.appendBytes([UInt8]())
                writer.appendArray([Int32]())
                writer.appendArray([Int64]())
                try writer.endRow()
            }
            let rows = try conn.query("select x, encode(b, 'hex'), i::text, l::text, cardinality(i) from a order by n")
            let texts = try rows.map { row in
                try (0..<4).map { try row.decode(String.self, at: $0) } + [String(try row.decode(Int.self, at: 4))]
            }
            #expect(texts == [["menü 1+2", "118b7f", "{-2147483648,0,7}", "{9223372036854775807,-1}", "3"],
                              ["", "", "{}", "{}", "0"]])
        }
    }
}
