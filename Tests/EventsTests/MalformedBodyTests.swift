import Events
import JSON
import Testing

/// Bodies a hostile or broken client might send. Each must end in a `BatchError` or in a batch with
/// no valid event, never in a crash or an accepted event.
@Suite("Malformed bodies")
struct MalformedBodyTests {
    struct Body: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        init(_ name: String, _ text: String) { self.init(name, bytes: Array(text.utf8)) }
        init(_ name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
        var description: String { name }
    }

    static func one(_ event: String) -> String { SampleBodies.batch([event]) }
    static func with(_ changes: [String: String?]) -> String { one(SampleBodies.event(changes)) }

    static let corpus: [Body] = {
        var bodies: [Body] = [
            Body("empty", ""),
            Body("whitespace", " \n\t "),
            Body("null", "null"),
            Body("array", "[]"),
            Body("string", #""events""#),
            Body("number", "42"),
            Body("open brace", "{"),
            Body("open events", #"{"events": ["#),
            Body("open event", #"{"events": [{"#),
            Body("trailing comma in events", SampleBodies.batch([SampleBodies.event()]).replacingLast("]}", with: ",]}")),
            Body("trailing comma in event", one(SampleBodies.event().replacingLast("}", with: ",}"))),
            Body("no events", #"{"context": {}}"#),
            Body("events null", #"{"events": null}"#),
            Body("events object", #"{"events": {"0": {}}}"#),
            Body("events string", #"{"events": "[]"}"#),
            Body("events number", #"{"events": 1}"#),
            Body("events nested deep", #"{"events": "# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"),
            Body("too many events", SampleBodies.batch(Array(repeating: "{}", count: 1001))),
            Body("single quotes", "{'events': []}"),
            Body("unquoted key", "{events: []}"),
            Body("NaN position", with(["position": "NaN"])),
            Body("Infinity latency", with(["latency_ms": "Infinity"])),
            Body("leading zero", with(["position": "01"])),
            Body("plus sign", with(["position": "+1"])),
            Body("huge number literal", with(["latency_ms": String(repeating: "9", count: 600)])),
            Body("comment", "// batch\n" + SampleBodies.batch([SampleBodies.event()])),
            Body("two documents", SampleBodies.batch([SampleBodies.event()]) + SampleBodies.batch([])),
            Body("byte order mark", bytes: [0xEF, 0xBB, 0xBF] + Array(SampleBodies.batch([SampleBodies.event()]).utf8)),
            Body("bad escape", with(["command": #""re\xply""#])),
            Body("lone surrogate", with(["element_type": #""mail\ud800""#])),
            Body("raw tab in string", with(["command": "\"re\tply\""])),
            Body("raw NUL in string", with(["command": "\"re\u{0}ply\""])),
            Body("bad sent_at", SampleBodies.batch([SampleBodies.event()], sentAt: "2026-11-29")),
            Body("numeric sent_at", #"{"sent_at": 0, "events": [\#(SampleBodies.event())]}"#),
            Body("context array", #"{"context": [], "events": [\#(SampleBodies.event())]}"#),
            Body("context platform too long", SampleBodies.batch([SampleBodies.event()], context: #"{"platform": "\#(String(repeating: "p", count: 65))"}"#)),
            Body("context is_test string", SampleBodies.batch([SampleBodies.event()], context: #"{"is_test": "no"}"#)),
            Body("duplicate events", #"{"events": [\#(SampleBodies.event())], "events": []}"#),
            Body("deep value inside event", with(["extra": String(repeating: #"{"a":"#, count: 30) + "1" + String(repeating: "}", count: 30)])),
            Body("events of scalars", #"{"events": [1, "x", null, [], true, 2.5]}"#),
            Body("empty event", one("{}")),
            Body("NUL escape in element_type", with(["element_type": #""mail\u0000message""#])),
            Body("overlong user", with(["user": "\"\(String(repeating: "u", count: 300))\""])),
            Body("overlong session with multibyte", with(["session": "\"\(String(repeating: "ж", count: 257))\""])),
            Body("overlong element_type", with(["element_type": "\"\(String(repeating: "e", count: 129))\""])),
            Body("overlong escaped element_type", with(["element_type": "\"" + String(repeating: #"\u0065"#, count: 200) + "\""])),
            Body("overlong trigger", with(["trigger": "\"\(String(repeating: "t", count: 65))\""])),
            Body("numeric time", with(["time": "1795946398120"])),
            Body("time without zone", with(["time": #""2026-11-29T09:59:58.120""#])),
            Body("Feb 30", with(["time": #""2026-02-30T09:59:58Z""#])),
            Body("short id", with(["id": #""0193a4c2-6f1e-7c3a-9d2b""#])),
            Body("id with braces", with(["id": #""{0193a4c2-6f1e-7c3a-9d2b-4e5f60718293}""#])),
            Body("missing command", with(["command": nil])),
            Body("dismiss with command", with(["kind": #""dismiss""#])),
            Body("kind in capitals", with(["kind": #""SELECT""#])),
            Body("huge latency", with(["latency_ms": "1e400"])),
            Body("negative position", with(["position": "-0.5"])),
            Body("position beyond Int64", with(["position": "123456789012345678901234567890"])),
            Body("command object", with(["command": #"{"$oid": "x"}"#])),
            Body("is_test number", with(["is_test": "0"])),
            Body("duplicate id", one(SampleBodies.event().replacingLast("}", with: #", "id": "\#(SampleBodies.uuid(9))"}"#))),
            Body("element_type with space", with(["element_type": #""mail message""#])),
            Body("element_type emoji", with(["element_type": #""mail😀""#])),
            Body("locale control char", with(["locale": #""ru\u0007""#])),
        ]
        let utf8Cases: [(String, [UInt8])] = [
            ("invalid UTF-8 in value", [0xFF]), ("overlong UTF-8", [0xC0, 0xAF]), ("UTF-8 surrogate", [0xED, 0xA0, 0x80]),
            ("truncated UTF-8", [0xE2, 0x82]), ("UTF-8 above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ]
        for (name, bad) in utf8Cases {
            let text = SampleBodies.batch([SampleBodies.event(["command": "\"@@\""])])
            var bytes = Array(text.utf8)
            let at = bytes.firstIndex(of: UInt8(ascii: "@"))!
            bytes.replaceSubrange(at..<(at + 2), with: bad)
            bodies.append(Body(name, bytes: bytes))
        }
        var keyBytes = Array(#"{"ev"#.utf8)
        keyBytes.append(0xFE)
        keyBytes += Array(#"ents": []}"#.utf8)
        bodies.append(Body("invalid UTF-8 in a key", bytes: keyBytes))
        // A valid one-event batch cut short at many places.
        let whole = SampleBodies.batch([SampleBodies.event()], context: #"{"platform": "iOS"}"#, sentAt: "2026-11-29T10:00:05.120Z")
        let bytes = Array(whole.utf8)
        for cut in stride(from: 1, to: bytes.count - 1, by: bytes.count / 12) {
            bodies.append(Body("truncated at \(cut)", bytes: Array(bytes[..<cut])))
        }
        return bodies
    }()

    @Test func theCorpusIsLargeEnough() {
        #expect(MalformedBodyTests.corpus.count >= 50)
        #expect(Set(MalformedBodyTests.corpus.map(\.name)).count == MalformedBodyTests.corpus.count)
    }

    @Test("no valid event comes out", arguments: corpus)
    func noValidEvent(_ body: Body) throws {
        do {
            let batch = try EventBatchDecoder().decode(body.bytes)
            #expect(batch.events.isEmpty, "accepted \(batch.events)")
            #expect(batch.rejections.count == batch.totalCount)
            for r in batch.rejections {
                #expect(r.code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" })
                #expect(!r.message.isEmpty)
            }
        } catch {
            #expect(["invalid_json", "invalid_batch", "too_many_events"].contains(error.code))
            #expect(!error.message.isEmpty)
            if error.kind == .invalidJSON {
                #expect(error.line != nil && error.column != nil && error.offset != nil)
            }
            // The error body is itself valid JSON carrying the code.
            let body = try JSONParser.parse(bytes: error.jsonBytes())
            #expect(body["error"]?.stringValue == error.code)
        }
    }

    @Test func theOriginalOfTheTruncationsIsValid() throws {
        let whole = SampleBodies.batch([SampleBodies.event()], context: #"{"platform": "iOS"}"#, sentAt: "2026-11-29T10:00:05.120Z")
        #expect(try EventBatchDecoder().decode(Array(whole.utf8)).events.count == 1)
    }
}
