import JSON
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("strings are escaped", arguments: [
        ("plain", #""plain""#),
        ("quote \" and \\ backslash", #""quote \" and \\ backslash""#),
        ("line\nbreak\ttab\rcr", #""line\nbreak\ttab\rcr""#),
        ("\u{08}\u{0C}", #""\b\f""#),
        ("nul\u{0}x\u{1F}", #""nul\u0000x\u001f""#),
        ("unicode é € 😀 / stays", #""unicode é € 😀 / stays""#),
    ])
    func escaping(_ input: String, _ expected: String) throws {
        var text = ""
        JSONWriter.appendQuoted(input, to: &text)
        #expect(text == expected)
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(input, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        var raw: [UInt8] = []
        Array(input.utf8).withUnsafeBufferPointer { JSONWriter.appendQuoted(utf8: $0, to: &raw) }
        #expect(raw == bytes)
        #expect(try JSONParser.parse(text).stringValue == input)
    }

    @Test("integers", arguments: [Int64(0), 7, -7, 1234567890, .max, .min])
    func integers(_ value: Int64) {
        var out: [UInt8] = []
        JSONWriter.appendInteger(value, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func compactAndPretty() {
        let value: JSONValue = ["b": [1, 2], "a": ["x": "y"], "e": [], "o": [:]]
        #expect(value.jsonText == #"{"b":[1,2],"a":{"x":"y"},"e":[],"o":{}}"#)
        let pretty = JSONWriter(style: .pretty).string(value)
        #expect(pretty == "{\n  \"b\": [1, 2],\n  \"a\": {\"x\": \"y\"},\n  \"e\": [],\n  \"o\": {}\n}\n")
    }

    @Test func numbersFromDoubles() {
        #expect(JSONNumber(2.0).text == "2")
        #expect(JSONNumber(2.5).text == "2.5")
        #expect(JSONNumber(1e20).text == "1e+20")
    }
}
