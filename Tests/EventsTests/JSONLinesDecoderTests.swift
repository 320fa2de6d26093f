import Events
import Testing

@Suite("JSONLinesDecoder")
struct JSONLinesDecoderTests {
    @Test func goodAndBadLines() throws {
        let lines = [
            SampleBodies.event(id: SampleBodies.uuid(1)),  // 1 ok
            "",  // 2 blank
            SampleBodies.event(["element_type": #""a b""#], id: SampleBodies.uuid(3)),  // 3 invalid_element_type
            #"{"id": "#,  // 4 invalid JSON
            "[1, 2]",  // 5 not an object
            SampleBodies.event(["command": nil, "kind": #""dismiss""#, "is_test": "true", "platform": #""Linux""#],
                               id: SampleBodies.uuid(6)) + "\r",  // 6 ok, CRLF
            "   \t ",  // 7 blank
            SampleBodies.event(id: SampleBodies.uuid(8)) + " {}",  // 8 trailing data
            SampleBodies.event(["sent_at": #""2026-11-29T10:00:05Z""#, "context": #"{"platform": "x"}"#], id: SampleBodies.uuid(9)),  // 9 ok, unknown members
            SampleBodies.event(["time": #""nope""#], id: SampleBodies.uuid(10)),  // 10 invalid_time
        ]
        let text = lines.joined(separator: "\n")
        let batch = JSONLinesDecoder().decode(Array(text.utf8))
        #expect(batch.lineCount == 10)
        #expect(batch.events.map(\.index) == [1, 6, 9])
        #expect(batch.events[1].kind == .dismiss && batch.events[1].isTest && batch.events[1].platform == "Linux")
        #expect(batch.events[2].platform == nil)
        #expect(batch.rejections.map(\.line) == [3, 4, 5, 8, 10])
        #expect(batch.rejections.map(\.code) == [.invalidElementType, .invalidJSON, .invalidEvent, .invalidJSON, .invalidTime])
        #expect(batch.rejections[0].id == SampleBodies.uuid(3))
        #expect(batch.rejections[1].message.contains("column"))
        #expect(batch.rejections[3].message.contains("after the end"))
        #expect(batch.rejections[4].description.hasPrefix("line 10: invalid_time: "))
    }

    @Test func lineNumbersContinueAcrossChunks() {
        let chunk = SampleBodies.event(id: SampleBodies.uuid(1)) + "\n" + "oops\n"
        let batch = JSONLinesDecoder().decode(Array(chunk.utf8), firstLineNumber: 101)
        #expect(batch.lineCount == 2)
        #expect(batch.events.map(\.index) == [101])
        #expect(batch.rejections.map(\.line) == [102])
        #expect(batch.rejections.first?.code == .invalidJSON)
    }

    @Test func singleLines() {
        let decoder = JSONLinesDecoder()
        let blank = Array("  \r".utf8).withUnsafeBufferPointer { decoder.decodeLine($0, lineNumber: 1) }
        #expect(blank == .blank)
        let deep = String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        let line = Array(SampleBodies.event(["extra": deep]).utf8)
        guard case .rejected(let r) = line.withUnsafeBufferPointer({ decoder.decodeLine($0, lineNumber: 5) }) else {
            Issue.record("deep nesting accepted")
            return
        }
        #expect(r.code == .invalidJSON)
        #expect(r.message.contains("nesting"))
    }

    @Test func emptyInput() {
        let batch = JSONLinesDecoder().decode([])
        #expect(batch.lineCount == 0 && batch.events.isEmpty && batch.rejections.isEmpty)
    }
}
