import Foundation
import Postgres
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct CopyTests {
    static let pieces = ["\t", "\n", "\r", "\\", "'", "\"", "\\N", "\\.", "é", "🎉", "a", ",", "{}", "", " ", "NULL", "\r\n"]

    /// A deterministic hostile string for row `index`.
    static func hostile(_ index: Int) -> String {
        var text = ""
        var state = index &* 2_654_435_761 & 0xFFFF_FFFF
        for _ in 0..<(index % 6) {
            text += pieces[state % pieces.count]
            state = state / pieces.count + index
        }
        return text
    }

    @Test func hundredThousandHostileRowsReadBackIdentically() throws {
        try TestDatabase.withSchema(prefix: "copy") { schema in
            let conn = try schema.connect()
            try conn.execute("""
                create table c (id int8, s text, n text, u uuid, t timestamptz, b bytea, a text[], small int2, f float8, ok bool)
                """)
            let count = 100_000
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            func uuid(_ index: Int) -> UUID {
                var bytes = [UInt8](repeating: 0, count: 16)
                withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
                bytes[0] = 0xAB
                return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                   bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            }
            let stored = try conn.copyIn("copy c (id, s, n, u, t, b, a, small, f, ok) from stdin") { writer in
                for index in 0..<count {
                    try writer.append(index)
                    try writer.append(Self.hostile(index))
                    try writer.append(index % 7 == 0 ? nil : Self.hostile(index + 1))
                    try writer.append(uuid(index))
                    try writer.append(base.addingTimeInterval(Double(index) * 0.000_001 - 1000))
                    try writer.append([UInt8]([UInt8(index & 0xFF), 0, 0x5C, 0x0A]))
                    try writer.append([Self.hostile(index + 2), Self.hostile(index + 3)])
                    try writer.append(Int16(truncatingIfNeeded: index))
                    try writer.append(Double(index) / 3)
                    try writer.append(index % 2 == 0)
                    try writer.endRow()
                }
                #expect(writer.rowCount == count)
            }
            #expect(stored == count)
            let rows = try conn.query("select id, s, n, u, t, b, a::text, small, f, ok, a[1], a[2] from c order by id")
            #expect(rows.count == count)
            var mismatches = 0
            for (index, row) in rows.enumerated() {
                let expectedTime = base.addingTimeInterval(Double(index) * 0.000_001 - 1000)
                let same = try row.decode(Int.self, at: 0) == index
                    && row.decode(String.self, at: 1) == Self.hostile(index)
                    && row.decode(String?.self, at: 2) == (index % 7 == 0 ? nil : Self.hostile(index + 1))
                    && row.decode(UUID.self, at: 3) == uuid(index)
                    && abs(row.decode(Date.self, at: 4).timeIntervalSince(expectedTime)) < 0.000_000_5
                    && row.decode([UInt8].self, at: 5) == [UInt8(index & 0xFF), 0, 0x5C, 0x0A]
                    && row.decode(Int16.self, at: 7) == Int16(truncatingIfNeeded: index)
                    && row.decode(Double.self, at: 8) == Double(index) / 3
                    && row.decode(Bool.self, at: 9) == (index % 2 == 0)
                    && row.decode(String.self, at: 10) == Self.hostile(index + 2)
                    && row.decode(String.self, at: 11) == Self.hostile(index + 3)
                if !same { mismatches += 1 }
            }
            #expect(mismatches == 0)
            // The generator really is hostile.
            let special = try conn.query("""
                select count(*) filter (where s like '%' || chr(9) || '%'), count(*) filter (where s like '%' || chr(10) || '%'),
                       count(*) filter (where s like '%' || chr(13) || '%'), count(*) filter (where strpos(s, '\\') > 0),
                       count(*) filter (where s = '\\N'), count(*) filter (where n is null)
                from c
                """).first!
            for column in 0..<6 { #expect(try special.decode(Int.self, at: column) > 0) }
        }
    }

    @Test func nulInTextDropsTheRowWhenCaughtAndAbortsTheCopyOtherwise() throws {
        try TestDatabase.withSchema(prefix: "copy") { schema in
            let conn = try schema.connect()
            try conn.execute("create table c (id int, s text)")
            var caught: PostgresError?
            let stored = try conn.copyIn("copy c from stdin") { writer in
                for (id, text) in [(1, "ok"), (2, "bad\u{0}byte"), (3, "fine")] {
                    do {
                        try writer.append(id)
                        try writer.append(text)
                        try writer.endRow()
                    } catch let error as PostgresError {
                        caught = error
                    }
                }
            }
            #expect(stored == 2)
            #expect(caught?.kind == .encoding)
            #expect(caught?.message.contains("row 2, column 2") == true)
            #expect(try conn.query("select id from c order by id").map { try $0.decode(Int.self, at: 0) } == [1, 3])

            let error = try #require(throws: PostgresError.self) {
                try conn.copyIn("copy c from stdin") { writer in
                    try writer.append(4)
                    try writer.append("x")
                    try writer.endRow()
                    try writer.append(5)
                    try writer.append("\u{0}")
                    try writer.endRow()
                }
            }
            #expect(error.kind == .encoding)
            #expect(try conn.query("select count(*) from c").first!.decode(Int.self, at: 0) == 2)
        }
    }

    @Test func bodyErrorAbortsServerErrorReportsAndConnectionStaysUsable() throws {
        struct Stop: Error {}
        try TestDatabase.withSchema(prefix: "copy") { schema in
            let conn = try schema.connect()
            try conn.execute("create table c (id int primary key)")
            #expect(throws: Stop.self) {
                try conn.copyIn("copy c from stdin") { writer in
                    try writer.append(1)
                    try writer.endRow()
                    throw Stop()
                }
            }
            let duplicate = try #require(throws: PostgresError.self) {
                try conn.copyIn("copy \(identifier: "c") from stdin") { writer in
                    for id in [1, 2, 1] {
                        try writer.append(id)
                        try writer.endRow()
                    }
                }
            }
            #expect(duplicate.sqlState == .uniqueViolation)
            let unended = try #require(throws: PostgresError.self) {
                try conn.copyIn("copy c from stdin") { writer in try writer.append(9) }
            }
            #expect(unended.kind == .copy)
            #expect(try conn.query("select count(*) from c").first!.decode(Int.self, at: 0) == 0)
            // COPY through query() is refused without wedging the connection.
            #expect(throws: PostgresError.self) { try conn.execute("copy c from stdin") }
            #expect(try conn.copyIn("copy c from stdin") { writer in
                try writer.append(5)
                try writer.endRow()
            } == 1)
        }
    }
}
