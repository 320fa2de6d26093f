import CivilTime
import Foundation
import Postgres
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct RoundTripTests {
    /// Stores `value` in a column of `sqlType`, reads it back, and also reads back the bind
    /// echoed by `select $1`.
    func roundTrip<T: PostgresEncodable & PostgresDecodable>(
        _ value: T, as sqlType: String, in conn: PostgresConnection
    ) throws -> (stored: T, echoed: T) {
        try conn.execute("create temporary table if not exists rt_\(unsafeRaw: sqlType.filter(\.isLetter)) (v \(unsafeRaw: sqlType))")
        try conn.execute("truncate rt_\(unsafeRaw: sqlType.filter(\.isLetter))")
        try conn.execute("insert into rt_\(unsafeRaw: sqlType.filter(\.isLetter)) (v) values (\(value))")
        let stored = try #require(try conn.query("select v from rt_\(unsafeRaw: sqlType.filter(\.isLetter))").first)
        let echoed = try #require(try conn.query("select \(value)").first)
        return (try stored.decode(T.self, at: 0), try echoed.decode(T.self, at: 0))
    }

    @Test func integersIncludingExtremes() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            for value in [Int64.min, Int64.max, 0, -1, 42] {
                let back = try roundTrip(value, as: "int8", in: conn)
                #expect(back.stored == value && back.echoed == value)
                #expect(try roundTrip(Int(value), as: "int8", in: conn).stored == Int(value))
            }
            for value in [Int32.min, Int32.max, 0] {
                #expect(try roundTrip(value, as: "int4", in: conn).stored == value)
            }
            for value in [Int16.min, Int16.max, 0, -1] {
                let back = try roundTrip(value, as: "int2", in: conn)
                #expect(back.stored == value && back.echoed == value)
            }
            // Wider column into narrower Swift type: range-checked.
            let row = try #require(try conn.query("select 40000::int4 as big, 12::numeric as n, 7::int2 as small").first)
            #expect(throws: PostgresError.self) { try row.decode(Int16.self, column: "big") }
            #expect(try row.decode(Int.self, column: "n") == 12)
            #expect(try row.decode(Int64.self, column: "small") == 7)
        }
    }

    @Test func doublesIncludingSpecials() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            for value in [0.0, -0.0, 1.5, -1e-300, 1e300, 0.1, Double.greatestFiniteMagnitude, .leastNonzeroMagnitude,
                          .infinity, -.infinity] {
                let back = try roundTrip(value, as: "float8", in: conn)
                #expect(back.stored == value && back.echoed == value, "\(value)")
                #expect(back.stored.sign == value.sign)
            }
            #expect(try roundTrip(Double.nan, as: "float8", in: conn).stored.isNaN)
            let row = try #require(try conn.query("select 1.25::float4, 3.5::numeric, 2::int4").first)
            #expect(try row.decode(Double.self, at: 0) == 1.25)
            #expect(try row.decode(Double.self, at: 1) == 3.5)
            #expect(try row.decode(Double.self, at: 2) == 2)
        }
    }

    @Test func boolsStringsAndHostileText() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            for value in [true, false] { #expect(try roundTrip(value, as: "bool", in: conn).stored == value) }
            let strings = ["", " ", "héllo wörld ✓ 日本語 🎉", "a\tb\nc\rd", #"back\slash \N"#, "'quote\"", "'); DROP TABLE x; --"]
            for value in strings {
                let back = try roundTrip(value, as: "text", in: conn)
                #expect(back.stored == value && back.echoed == value)
            }
            let injected = "'); DROP TABLE x; --"
            try conn.execute("create table x (v text)")
            try conn.execute("insert into x values (\(injected))")
            #expect(try conn.query("select v from x").map { try $0.decode(String.self, at: 0) } == [injected])
        }
    }

    @Test func timestampsKeepMicrosecondsAndZones() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            let dates = [
                Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000.123456),
                Date(timeIntervalSince1970: -1_000_000_000.000001), Date(timeIntervalSince1970: 4_102_444_799.999999),
            ]
            for date in dates {
                let back = try roundTrip(date, as: "timestamptz", in: conn)
                #expect(abs(back.stored.timeIntervalSince(date)) < 0.000_000_5, "\(date)")
                #expect(back.stored == back.echoed)
            }
            for day in [CivilDate(year: 2024, month: 2, day: 29)!, CivilDate(dayNumber: 0),
                        CivilDate(year: 0, month: 12, day: 31)!, CivilDate(year: 9999, month: 12, day: 31)!] {
                let back = try roundTrip(day, as: "date", in: conn)
                #expect(back.stored == day && back.echoed == day, "\(day)")
            }
            #expect(UTCTimestamp(Date(timeIntervalSince1970: -1)).day == CivilDate(year: 1969, month: 12, day: 31))
            for instant in [UTCTimestamp(microsecondsSince1970: 0), UTCTimestamp(microsecondsSince1970: 1_700_000_000_123_456),
                            UTCTimestamp(microsecondsSince1970: -1_000_000_000_000_001)] {
                let back = try roundTrip(instant, as: "timestamptz", in: conn)
                #expect(back.stored == instant && back.echoed == instant, "\(instant)")
                #expect(try conn.query("SELECT \(instant)::date")[0].decode(CivilDate.self, at: 0) == instant.day)
            }
            // Arrays bind as date[] and timestamptz[], so no text is cast on the server.
            let days = [CivilDate(year: 2026, month: 11, day: 29)!, CivilDate(year: 1, month: 1, day: 1)!]
            let instants = [UTCTimestamp(microsecondsSince1970: 1_764_410_398_120_000), UTCTimestamp(microsecondsSince1970: -1)]
            let arrays = try #require(try conn.query("""
                SELECT pg_typeof(\(days))::text, array_to_string(\(days), ','), pg_typeof(\(instants))::text,
                       (SELECT array_agg(extract(epoch from t)::numeric * 1000000 ORDER BY o)::text
                        FROM unnest(\(instants)) WITH ORDINALITY AS u(t, o))
                """).first)
            #expect(try arrays.decode(String.self, at: 0) == "date[]")
            #expect(try arrays.decode(String.self, at: 1) == "2026-11-29,0001-01-01")
            #expect(try arrays.decode(String.self, at: 2) == "timestamp with time zone[]")
            #expect(try arrays.decode(String.self, at: 3) == "{1764410398120000.000000,-1.000000}")
            // The server's own view of the instant, whatever the session time zone.
            let row = try #require(try conn.query("""
                select '2024-03-01 05:30:00.000001+05:30'::timestamptz, '2024-03-01 00:00:00.000001'::timestamp,
                       '2024-03-01'::date, extract(epoch from \(dates[1]))::float8
                """).first)
            let expected = Date(timeIntervalSince1970: 1_709_251_200.000001)
            #expect(abs(try row.decode(Date.self, at: 0).timeIntervalSince(expected)) < 0.000_000_5)
            #expect(abs(try row.decode(Date.self, at: 1).timeIntervalSince(expected)) < 0.000_000_5)
            #expect(try row.decode(Date.self, at: 2) == Date(timeIntervalSince1970: 1_709_251_200))
            #expect(abs(try row.decode(Double.self, at: 3) - 1_700_000_000.123456) < 0.000_000_5)
            // Another session time zone does not change the instant read back.
            try conn.execute("set timezone = 'America/St_Johns'")
            #expect(abs(try conn.query("select \(dates[1])").first!.decode(Date.self, at: 0).timeIntervalSince(dates[1])) < 0.000_000_5)
        }
    }

    @Test func uuidsBytesArraysAndNulls() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            let uuid = UUID()
            #expect(try roundTrip(uuid, as: "uuid", in: conn).stored == uuid)
            let bytes: [UInt8] = [0, 1, 2, 0x5C, 0xFF, 0x0A, 0]
            #expect(try roundTrip(bytes, as: "bytea", in: conn).stored == bytes)
            #expect(try roundTrip([UInt8](), as: "bytea", in: conn).stored == [])

            let none: Int? = nil
            let back = try roundTrip(none, as: "int8", in: conn)
            #expect(back.stored == nil && back.echoed == nil)
            #expect(try roundTrip(String?.none, as: "text", in: conn).stored == nil)
            #expect(try roundTrip(Optional(""), as: "text", in: conn).stored == "")
            #expect(try roundTrip(Date?.none, as: "timestamptz", in: conn).stored == nil)
            #expect(try roundTrip(UUID?.none, as: "uuid", in: conn).stored == nil)

            let row = try #require(try conn.query("""
                select array_length(\([1, 2, 3]), 1), \(["a\"b", "c\\d", "", "NULL", "é,}"])::text[],
                       cardinality(\([uuid, uuid])), \([Int64.min]) = array[\(Int64.min)]
                """).first)
            #expect(try row.decode(Int.self, at: 0) == 3)
            #expect(try row.decode(String.self, at: 1) == #"{"a\"b","c\\d","","NULL","é,}"}"#)
            #expect(try row.decode(Int.self, at: 2) == 2)
            #expect(try row.decode(Bool.self, at: 3))
            let any = try conn.query("select count(*) from unnest(\(["x", "y"])) as u where u = any(\(["y"]))")
            #expect(try any.first!.decode(Int.self, at: 0) == 1)
        }
    }

    @Test func bindHoldingNulIsAClearError() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            let error = try #require(throws: PostgresError.self) { try conn.query("select \(1), \("a\u{0}b")") }
            #expect(error.kind == .encoding)
            #expect(error.message.contains("$2"))
            #expect(try conn.query("select 1").count == 1)
        }
    }

    @Test func executeCountsRowsAndRunsScripts() throws {
        try TestDatabase.withSchema(prefix: "rt") { schema in
            let conn = try schema.connect()
            try conn.execute(unsafeSQL: "create table t (id int primary key, name text); insert into t values (1, 'a'), (2, 'b');")
            #expect(try conn.execute("update t set name = \("z")") == 2)
            #expect(try conn.execute("delete from t where id = \(1)") == 1)
            #expect(try conn.execute("select * from t") == 1)
            let rows = try conn.query("select id, name from \(identifier: schema.name).t")
            #expect(rows.columns.map(\.name) == ["id", "name"])
            #expect(rows.columns.map(\.dataType) == [.int4, .text])
            #expect(try rows.first!.decode(String.self, column: "name") == "z")
            #expect(conn.isAlive)
            #expect(conn.serverVersion >= 150_000)
        }
    }
}
