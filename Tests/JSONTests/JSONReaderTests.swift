import JSON
import Testing

@Suite("JSONReader")
struct JSONReaderTests {
    func withReader<R>(_ text: String, maxDepth: Int = 64, _ body: (inout JSONReader) throws -> R) rethrows -> R {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, maxDepth: maxDepth)
            return try body(&reader)
        }
    }

    func kind(_ text: String) -> JSONValueKind? {
        withReader(text) { (r: inout JSONReader) in r.peekKind() }
    }

    @Test func peekKindTellsTheNextValue() {
        #expect(kind(" {") == .object)
        #expect(kind("[") == .array)
        #expect(kind("\"") == .string)
        #expect(kind("-1") == .number)
        #expect(kind("7") == .number)
        #expect(kind("false") == .bool)
        #expect(kind("null") == .null)
        #expect(kind("  ") == nil)
        #expect(kind("x") == nil)
    }

    @Test func scanStringWithoutEscapesPointsIntoTheInput() throws {
        try withReader(#"  "plain" , "with\nescape""#) { r in
            let plain = try r.scanString()
            #expect(!plain.hasEscapes)
            #expect(plain.isASCII)
            #expect(plain.start == 3 && plain.end == 8)
            #expect(Array(r.rawBytes(plain)) == Array("plain".utf8))
            let comma = r.consume(UInt8(ascii: ","))
            #expect(comma)
            let escaped = try r.scanString()
            #expect(escaped.hasEscapes)
            #expect(r.decodeString(escaped) == "with\nescape")
            #expect(r.decodeStringBytes(escaped) == Array("with\nescape".utf8))
            #expect(r.isAtEnd)
        }
    }

    @Test func scanStringMarksNonASCII() throws {
        try withReader(#""é""#) { r in
            let span = try r.scanString()
            #expect(!span.isASCII)
            #expect(r.decodeString(span) == "é")
        }
    }

    @Test("readInteger returns nil for valid non-integers", arguments: [
        ("0", Int64?.some(0)), ("-0", 0), ("42", 42), ("-9223372036854775808", .min),
        ("9223372036854775807", .max), ("9223372036854775808", nil), ("-9223372036854775809", nil),
        ("1.0", nil), ("1e3", nil), ("123456789012345678901234567890", nil),
    ])
    func readInteger(_ text: String, _ expected: Int64?) throws {
        let value = try withReader(text) { (r: inout JSONReader) in try r.readInteger() }
        #expect(value == expected)
    }

    @Test func readIntegerThrowsOnBadSyntax() {
        #expect(throws: JSONParseError.self) { try withReader("01") { (r: inout JSONReader) in try r.readInteger() } }
        #expect(throws: JSONParseError.self) { try withReader("-") { (r: inout JSONReader) in try r.readInteger() } }
    }

    @Test func readInt64KeepsItsErrors() {
        #expect(throws: JSONParseError.self) { try withReader("1.5") { (r: inout JSONReader) in try r.readInt64() } }
        #expect(throws: JSONParseError.self) { try withReader("99999999999999999999") { (r: inout JSONReader) in try r.readInt64() } }
        #expect((try? withReader("-17") { (r: inout JSONReader) in try r.readInt64() }) == -17)
    }

    @Test func skipValueValidatesAndMovesPast() throws {
        try withReader(#"{"a":[1,{"b":"\u00e9"},null,true],"c":{}} 5"#) { r in
            try r.skipValue(depth: 0)
            let next = r.peekKind()
            #expect(next == .number)
            let five = try r.readInteger()
            #expect(five == 5)
        }
        #expect(throws: JSONParseError.self) { try withReader(#"{"a":[1,}"#) { (r: inout JSONReader) in try r.skipValue(depth: 0) } }
        #expect(throws: JSONParseError.self) { try withReader(#"["\x"]"#) { (r: inout JSONReader) in try r.skipValue(depth: 0) } }
        #expect(throws: JSONParseError.self) { try withReader("[[[1]]]", maxDepth: 2) { (r: inout JSONReader) in try r.skipValue(depth: 0) } }
        try withReader("[[1]]", maxDepth: 2) { (r: inout JSONReader) in try r.skipValue(depth: 0) }
    }

    @Test func literals() throws {
        try withReader("true false null") { r in
            let t = try r.readBool()
            let f = try r.readBool()
            #expect(t && !f)
            try r.readNull()
        }
        #expect(throws: JSONParseError.self) { try withReader("nul") { (r: inout JSONReader) in try r.readNull() } }
        #expect(throws: JSONParseError.self) { try withReader("1") { (r: inout JSONReader) in try r.readBool() } }
    }

    @Test func expectReportsWhatItFound() {
        do {
            try withReader("  x") { (r: inout JSONReader) in try r.expect(UInt8(ascii: "{")) }
            Issue.record("no error")
        } catch let error as JSONParseError {
            #expect(error.message == "expected '{', found 'x'")
            #expect(error.column == 3)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
