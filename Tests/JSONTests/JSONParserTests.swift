import JSON
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    @Test("valid documents round trip through the writer", arguments: [
        #"{}"#, #"[]"#, #"null"#, #"true"#, #"false"#, #"0"#, #"-0"#, #"12.5e-3"#, #"-1E+400"#,
        #""""#, #""h\u00e9llo \"w\" \\ \n\t""#, #"{"a":[1,2,{"b":null}],"c":"d"}"#,
        #"[[[[[[]]]]]]"#, #"{"k":"\ud83d\ude00 emoji"}"#, #"[1,"two",3.0,false,null,{}]"#,
        #"{"dup":1,"dup":2}"#, #"123456789012345678901234567890"#,
    ])
    func roundTrip(_ text: String) throws {
        let value = try JSONParser.parse(text)
        let written = value.jsonText
        let reparsed = try JSONParser.parse(written)
        #expect(reparsed == value)
        #expect(JSONWriter().string(reparsed) == written)
    }

    @Test func valuesAndAccessors() throws {
        let v = try JSONParser.parse(#" { "name" : "x", "n": 42, "f": 1.5, "list": [true, null], "big": 99999999999999999999 } "#)
        #expect(v["name"]?.stringValue == "x")
        #expect(v["n"]?.intValue == 42)
        #expect(v["f"]?.doubleValue == 1.5)
        #expect(v["list"]?.arrayValue == [true, nil])
        #expect(v["big"] == .number(JSONNumber(text: "99999999999999999999")))
        #expect(v["big"]?.intValue == nil)
        #expect(v["missing"] == nil)
    }

    @Test func escapesDecode() throws {
        let v = try JSONParser.parse(#""a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9\u20ac\ud834\udd1e""#)
        #expect(v.stringValue == "a\"b\\c/d\u{08}e\u{0C}f\ng\rh\tiAé€𝄞")
    }

    @Test func rawUTF8IsKept() throws {
        let v = try JSONParser.parse(#"["привет", "日本", "😀"]"#)
        #expect(v == ["привет", "日本", "😀"])
    }

    struct BadCase: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let line: Int
        let column: Int
        let fragment: String
        init(_ name: String, _ text: String, line: Int, column: Int, _ fragment: String) {
            self.init(name, Array(text.utf8), line: line, column: column, fragment)
        }
        init(_ name: String, _ bytes: [UInt8], line: Int, column: Int, _ fragment: String) {
            self.name = name
            self.bytes = bytes
            self.line = line
            self.column = column
            self.fragment = fragment
        }
        var description: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase("empty", "", line: 1, column: 1, "unexpected end of input"),
        BadCase("truncated object", "{\"a\": 1", line: 1, column: 8, "end of input inside an object"),
        BadCase("truncated on line 3", "{\n  \"a\": [1,\n  2", line: 3, column: 4, "end of input inside an array"),
        BadCase("truncated string", #"{"a": "abc"#, line: 1, column: 7, "unterminated string"),
        BadCase("truncated literal", "[tru", line: 1, column: 2, "invalid literal"),
        BadCase("trailing comma in array", "[1, 2,]", line: 1, column: 6, "trailing comma in an array"),
        BadCase("trailing comma in object", "{\"a\": 1,\n}", line: 1, column: 8, "trailing comma in an object"),
        BadCase("bad escape", #"["a\qb"]"#, line: 1, column: 4, #"invalid escape '\q'"#),
        BadCase("bad unicode escape", #"["\u12G4"]"#, line: 1, column: 7, "invalid hex digit"),
        BadCase("truncated unicode escape", #"["\u12"#, line: 1, column: 5, "truncated"),
        BadCase("lone high surrogate", #"["\ud800x"]"#, line: 1, column: 3, "unpaired surrogate"),
        BadCase("lone low surrogate", #"["\udc00"]"#, line: 1, column: 3, "unpaired surrogate"),
        BadCase("high surrogate then non-low", #"["\ud800\u0041"]"#, line: 1, column: 3, "invalid surrogate pair"),
        BadCase("invalid UTF-8 byte", [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], line: 1, column: 4, "invalid UTF-8"),
        BadCase("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22], line: 1, column: 2, "invalid UTF-8"),
        BadCase("UTF-8 surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], line: 1, column: 2, "invalid UTF-8"),
        BadCase("truncated UTF-8", [0x22, 0xE2, 0x82], line: 1, column: 2, "invalid UTF-8"),
        BadCase("bad continuation", [0x22, 0xE2, 0x28, 0xA1, 0x22], line: 1, column: 3, "invalid UTF-8"),
        BadCase("raw control char", "[\"a\tb\"]", line: 1, column: 4, "control character"),
        BadCase("raw newline in string", "[\n\"a\nb\"]", line: 2, column: 3, "control character"),
        BadCase("leading zero", "[01]", line: 1, column: 2, "leading zero"),
        BadCase("negative leading zero", "-012", line: 1, column: 1, "leading zero"),
        BadCase("bare minus", "[-]", line: 1, column: 2, "invalid number"),
        BadCase("dot without digits", "[1.]", line: 1, column: 2, "after '.'"),
        BadCase("exponent without digits", "[1e+]", line: 1, column: 2, "exponent"),
        BadCase("huge number literal", "[" + String(repeating: "9", count: 500) + "]", line: 1, column: 2, "too long"),
        BadCase("single quotes", "{'a': 1}", line: 1, column: 2, "member name in double quotes"),
        BadCase("missing colon", #"{"a" 1}"#, line: 1, column: 6, "expected ':'"),
        BadCase("missing comma", "[1 2]", line: 1, column: 4, "expected ',' or ']'"),
        BadCase("trailing data", "{} x", line: 1, column: 4, "after the end"),
        BadCase("two documents", "{}\n{}", line: 2, column: 1, "after the end"),
        BadCase("NaN", "[NaN]", line: 1, column: 2, "unexpected 'N'"),
        BadCase("comment", "[1] // c", line: 1, column: 5, "after the end"),
        BadCase("deep nesting", String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
                line: 1, column: 65, "nesting deeper than 64"),
    ]

    @Test("errors say where", arguments: badCases)
    func errorPosition(_ bad: BadCase) {
        do {
            let value = try JSONParser.parse(bytes: bad.bytes)
            Issue.record("parsed \(value) from \(bad.name)")
        } catch {
            #expect(error.line == bad.line, "\(error)")
            #expect(error.column == bad.column, "\(error)")
            #expect(error.message.contains(bad.fragment), "\(error)")
            #expect(error.description.contains("line \(bad.line), column \(bad.column)"))
        }
    }

    @Test func depthLimitIsConfigurable() throws {
        let doc = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(doc, options: .init(maxDepth: 9)) }
        _ = try JSONParser.parse(doc, options: .init(maxDepth: 10))
    }

    @Test func hugeButValidNumbersAreKeptAsText() throws {
        let v = try JSONParser.parse("[1e999, -123456789012345678901234567890.5]")
        #expect(v.arrayValue?.first == .number(JSONNumber(text: "1e999")))
        #expect(v.arrayValue?.last?.intValue == nil)
    }
}
