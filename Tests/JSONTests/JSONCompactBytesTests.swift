import JSON
import Testing

/// The compact writer on bytes (`JSONWriter.appendCompact`, behind `JSONWriter.string` in compact
/// style) gives exactly the text of the `String` writer (`JSONWriter.write`): documents are stored
/// and compared byte for byte, so a change of writer must not change a byte.
@Suite struct JSONCompactBytesTests {
    /// The `String` writer's compact text, the reference.
    static func reference(_ value: JSONValue) -> String {
        var out = ""
        JSONWriter(style: .compact).write(value, indent: 0, into: &out)
        return out
    }

    /// A deterministic pseudo-random document: nested arrays and objects, numbers as written,
    /// strings with quotes, backslashes, every control character, non-ASCII and emoji.
    static func document(_ seed: inout UInt64, depth: Int) -> JSONValue {
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pieces = ["a", "\"", "\\", "é", "日本", "🙂", " ", "\u{7F}", "x/y"] + (0..<32).map { String(UnicodeScalar(UInt8($0))) }
        switch next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(next() % 2 == 0)
        case 2: return .number(JSONNumber(text: ["0", "-1", "3.25", "1e-7", "123456789012"][Int(next() % 5)]))
        case 3, 4:
            return .string((0..<Int(next() % 6)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined())
        case 5:
            return .array((0..<Int(next() % 4)).map { _ in document(&seed, depth: depth + 1) })
        default:
            return .object((0..<Int(next() % 4)).map { index in
                (key: "k\(index)" + pieces[Int(next() % UInt64(pieces.count))], value: document(&seed, depth: depth + 1))
            })
        }
    }

    @Test func sameBytesAsTheStringWriterOnAThousandDocuments() {
        var seed: UInt64 = 42
        for _ in 0..<1_000 {
            let value = Self.document(&seed, depth: 0)
            let reference = Self.reference(value)
            #expect(Array(reference.utf8) == value.jsonBytes)
            #expect(value.jsonText == reference)
        }
    }

    @Test func controlCharactersAndEmptyContainers() {
        let value: JSONValue = .object([(key: "a\u{01}", value: .array([])), (key: "b", value: .object([])),
                                        (key: "c", value: .string("\u{1F}\n\t\"\\"))])
        #expect(value.jsonText == #"{"a\u0001":[],"b":{},"c":"\u001f\n\t\"\\"}"#)
    }
}
