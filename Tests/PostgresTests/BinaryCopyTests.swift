import Postgres
import TestSupport
import Testing

/// Binary COPY (the ingestion path's format): every field type it offers, NULLs, times before
/// 2000 and far from it, read back as text by the server; a row with the wrong number of fields
/// aborts the COPY and stores nothing.
@Suite(TestDatabase.enabled) struct BinaryCopyTests {
    @Test func rowsReadBackAsTheServerSpellsThem() throws {
        try TestDatabase.withSchema(prefix: "bincopy") { schema in
            let conn = try schema.connect()
            try conn.execute("create table b (i int4, d date, t timestamptz, l int8, u uuid, s int2)")
            let days: [Int32] = [0, 10_957, 20_786, -1, 2_932_896]        // 1970-01-01, 2000-01-01, 2026-11-29, 1969-12-31, 9999-12-31
            let micros: [Int64] = [0, 946_684_800_000_000, 1_795_946_398_120_456, -1, 1_000_000]
            let stored = try conn.copyInBinary("copy b (i, d, t, l, u, s) from stdin (format binary)") { writer in
                for n in 0..<days.count {
                    writer.beginRow(fields: 6)
                    writer.append(Int32(n) - 2)
                    writer.appendDate(daysSince1970: days[n])
                    writer.appendTimestamp(microsSince1970: micros[n])
                    writer.append(n == 1 ? nil : Int64.min + Int64(n))
                    writer.appendUUID(high: 0x0193_A4C2_6F1E_7C3A &+ UInt64(n), low: 0x9D2B_4E5F_6071_8293)
                    writer.append(n == 2 ? nil : Int16(-300 + n))
                    try writer.endRow()
                }
            }
            #expect(stored == days.count)
            try conn.execute("set timezone = 'UTC'")
            let rows = try conn.query("""
                select i, d::text, t::text, l::text, u::text, s from b order by i
                """)
            let texts = try rows.map { row in
                [try row.decode(Int32.self, at: 0).description, try row.decode(String.self, at: 1),
                 try row.decode(String.self, at: 2), try row.decode(String?.self, at: 3) ?? "NULL",
                 try row.decode(String.self, at: 4), try row.decode(Int16?.self, at: 5).map(\.description) ?? "NULL"]
            }
            #expect(texts == [
                ["-2", "1970-01-01", "1970-01-01 00:00:00+00", "-9223372036854775808", "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293", "-300"],
                ["-1", "2000-01-01", "2000-01-01 00:00:00+00", "NULL", "0193a4c2-6f1e-7c3b-9d2b-4e5f60718293", "-299"],
                ["0", "2026-11-29", "2026-11-29 09:59:58.120456+00", "-9223372036854775806", "0193a4c2-6f1e-7c3c-9d2b-4e5f60718293", "NULL"],
                ["1", "1969-12-31", "1969-12-31 23:59:59.999999+00", "-9223372036854775805", "0193a4c2-6f1e-7c3d-9d2b-4e5f60718293", "-297"],
                ["2", "9999-12-31", "1970-01-01 00:00:01+00", "-9223372036854775804", "0193a4c2-6f1e-7c3e-9d2b-4e5f60718293", "-296"],
            ])
        }
    }

    @Test func aRowWithTheWrongFieldCountAbortsTheCopy() throws {
        try TestDatabase.withSchema(prefix: "bincopy") { schema in
            let conn = try schema.connect()
            try conn.execute("create table b (i int4, l int8)")
            #expect(throws: PostgresError.self) {
                try conn.copyInBinary("copy b (i, l) from stdin (format binary)") { writer in
                    writer.beginRow(fields: 2)
                    writer.append(Int32(1))
                    writer.append(Int64(2))
                    try writer.endRow()
                    writer.beginRow(fields: 2)
                    writer.append(Int32(3))
                    try writer.endRow()
                }
            }
            // The connection is usable again, and nothing was stored.
            #expect(try conn.query("select count(*) from b").first?.decode(Int.self, at: 0) == 0)
        }
    }

    @Test func aValueOfTheWrongWidthIsRefusedByTheServer() throws {
        try TestDatabase.withSchema(prefix: "bincopy") { schema in
            let conn = try schema.connect()
            try conn.execute("create table b (i int4)")
            #expect(throws: PostgresError.self) {
                try conn.copyInBinary("copy b (i) from stdin (format binary)") { writer in
                    writer.beginRow(fields: 1)
                    writer.append(Int64(1))   // int8 into an int4 column
                    try writer.endRow()
                }
            }
            #expect(try conn.query("select count(*) from b").first?.decode(Int.self, at: 0) == 0)
        }
    }
}
