import Foundation
import Testing

@testable import Postgres

@Suite struct PostgresTextEncoderTests {
    func encoded(_ value: some PostgresEncodable, copy: Bool = false) throws -> String {
        var encoder = PostgresTextEncoder(capacity: 16, escapesForCopy: copy)
        try value.encode(into: &encoder)
        return String(decoding: encoder.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (Int64.min, "-9223372036854775808"), (Int64.max, "9223372036854775807"), (0, "0"), (-7, "-7"),
        (10, "10"), (1_000_000, "1000000"),
    ] as [(Int64, String)])
    func integers(value: Int64, text: String) throws {
        #expect(try encoded(value) == text)
    }

    @Test func copyEscapesBackslashTabNewlineCarriageReturn() throws {
        #expect(try encoded("a\tb\nc\rd\\e\\N", copy: true) == #"a\tb\nc\rd\\e\\N"#)
        #expect(try encoded("a\tb\\", copy: false) == "a\tb\\")
        #expect(try encoded(String?.none, copy: true) == #"\N"#)
    }

    @Test func nulIsRefusedInBothModes() {
        for copy in [false, true] {
            #expect(throws: PostgresError.self) { try encoded("a\u{0}b", copy: copy) }
        }
    }

    @Test func arraysAreQuotedLiterals() throws {
        #expect(try encoded([1, -2, 3]) == "{1,-2,3}")
        #expect(try encoded([Int]()) == "{}")
        #expect(try encoded(["a\"b", "c\\d", "", "NULL", "x,y"]) == #"{"a\"b","c\\d","","NULL","x,y"}"#)
        // Inside COPY, every backslash of the array literal is doubled once more.
        #expect(try encoded(["a\"b", "c\\d"], copy: true) == #"{"a\\"b","c\\\\d"}"#)
    }

    @Test func byteaIsHex() throws {
        #expect(try encoded([UInt8]([0, 1, 0xAB, 0xFF])) == #"\x0001abff"#)
        #expect(try encoded([UInt8]([0x10]), copy: true) == #"\\x10"#)
    }

    @Test func uuidIsLowerCaseHex() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(try encoded(uuid) == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    }

    @Test(arguments: [
        (0.0, "1970-01-01 00:00:00+00"),
        (1_700_000_000.123456, "2023-11-14 22:13:20.123456+00"),
        (-1.5, "1969-12-31 23:59:58.500000+00"),
        (951_782_400, "2000-02-29 00:00:00+00"),
        (-62_135_596_800 - 86_400, "0001-12-31 00:00:00+00 BC"),
    ] as [(Double, String)])
    func timestamps(seconds: Double, text: String) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(try encoded(date) == text)
        let parsed = Array(text.utf8).withUnsafeBufferPointer { PostgresTimestamp.parse($0) }
        #expect(parsed.map(PostgresTimestamp.micros(of:)) == PostgresTimestamp.micros(of: date))
    }

    @Test func timestampOffsetsAreApplied() {
        func parse(_ text: String) -> Date? { Array(text.utf8).withUnsafeBufferPointer { PostgresTimestamp.parse($0) } }
        #expect(parse("2024-03-01 05:30:00+05:30") == Date(timeIntervalSince1970: 1_709_251_200))
        #expect(parse("2024-02-29 19:00:00-05") == Date(timeIntervalSince1970: 1_709_251_200))
        #expect(parse("2024-03-01") == Date(timeIntervalSince1970: 1_709_251_200))
        #expect(parse("2024-03-01 00:00:00.5") == Date(timeIntervalSince1970: 1_709_251_200.5))
        #expect(parse("infinity") == .distantFuture)
        #expect(parse("2024-13-01") == nil)
        #expect(parse("2024-03-01 00:00:00+") == nil)
    }

    @Test func doublesReadBack() throws {
        for value in [0.1, -2.5e-300, 1e300, 123456789.0, -0.0, Double.leastNonzeroMagnitude] {
            let text = try encoded(value)
            #expect(Double(text) == value, "\(text)")
        }
        #expect(try encoded(Double.nan) == "NaN")
        #expect(try encoded(-Double.infinity) == "-Infinity")
    }
}
