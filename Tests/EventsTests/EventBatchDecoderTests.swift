import Events
import Testing

@Suite("EventBatchDecoder")
struct EventBatchDecoderTests {
    let decoder = EventBatchDecoder()

    func decode(_ text: String, limits: EventLimits = EventLimits()) throws(BatchError) -> EventBatch {
        try EventBatchDecoder(limits: limits).decode(Array(text.utf8))
    }

    @Test func theDesignExampleDecodesFieldByField() throws {
        let body = """
            {
              "sent_at": "2026-11-29T10:00:05.120Z",
              "context": {"app_version": "5.2.1", "platform": "iOS 18.1", "locale": "ru_RU", "is_test": false},
              "events": [
                {"id": "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293", "time": "2026-11-29T09:59:58.120Z",
                 "element_type": "mail.message", "command": "reply", "kind": "select",
                 "position": 0, "latency_ms": 840, "menu_version": "2026.11.1", "user": "5d41402abc4b2a76",
                 "session": "s-81", "trigger": "long_press"}
              ]
            }
            """
        let batch = try decode(body)
        #expect(batch.sentAt == RFC3339.parse("2026-11-29T10:00:05.120Z"))
        #expect(batch.context == EventContext(appVersion: "5.2.1", platform: "iOS 18.1", locale: "ru_RU", isTest: false))
        #expect(batch.totalCount == 1)
        #expect(batch.rejections.isEmpty)
        let e = try #require(batch.events.first)
        #expect(e.index == 0)
        #expect(e.id == EventID("0193a4c2-6f1e-7c3a-9d2b-4e5f60718293"))
        #expect(e.time == 1_795_946_398_120_000)
        #expect(e.elementType == "mail.message")
        #expect(e.command == "reply")
        #expect(e.kind == .select)
        #expect(e.position == 0)
        #expect(e.latencyMs == 840)
        #expect(e.menuVersion == "2026.11.1")
        #expect(e.user == "5d41402abc4b2a76")
        #expect(e.session == "s-81")
        #expect(e.trigger == "long_press")
        #expect(e.appVersion == "5.2.1")
        #expect(e.platform == "iOS 18.1")
        #expect(e.locale == "ru_RU")
        #expect(e.isTest == false)
        #expect(e.day.description == "2026-11-29")
        #expect(e.dayNumber == 20_786)
    }

    @Test func minimalEventsAndDefaults() throws {
        let batch = try decode(#"{"events":[{"id":"\#(SampleBodies.id0)","time":"2026-11-29T09:59:58Z","element_type":"a","command":"b"}]}"#)
        let e = try #require(batch.events.first)
        #expect(batch.sentAt == nil)
        #expect(batch.context == EventContext())
        #expect(e.kind == .select)
        #expect(e.position == nil && e.latencyMs == nil && e.menuVersion == nil && e.user == nil)
        #expect(e.session == nil && e.trigger == nil && e.appVersion == nil && e.platform == nil && e.locale == nil)
        #expect(e.isTest == false)
    }

    @Test func contextAppliesUnlessTheEventOverrides() throws {
        let events = [
            SampleBodies.event(id: SampleBodies.uuid(1)),
            SampleBodies.event(["app_version": #""6.0""#, "platform": #""macOS 15""#, "locale": #""en_US""#, "is_test": "false"],
                               id: SampleBodies.uuid(2)),
            SampleBodies.event(["platform": "null"], id: SampleBodies.uuid(3)),
        ]
        // context after events: members of an object have no order.
        let body = #"{"events": [\#(events.joined(separator: ","))], "context": {"app_version": "5.2.1", "platform": "iOS 18.1", "locale": "ru_RU", "is_test": true}}"#
        let batch = try decode(body)
        #expect(batch.events.count == 3)
        let inherited = batch.events[0]
        #expect(inherited.appVersion == "5.2.1" && inherited.platform == "iOS 18.1" && inherited.locale == "ru_RU")
        #expect(inherited.isTest == true)
        let own = batch.events[1]
        #expect(own.appVersion == "6.0" && own.platform == "macOS 15" && own.locale == "en_US")
        #expect(own.isTest == false)
        #expect(batch.events[2].platform == "iOS 18.1")
    }

    @Test func dismissalsNeedNoCommand() throws {
        let batch = try decode(SampleBodies.batch([SampleBodies.event(["command": nil, "kind": #""dismiss""#])]))
        let e = try #require(batch.events.first)
        #expect(e.kind == .dismiss)
        #expect(e.command == nil)
        let withNull = try decode(SampleBodies.batch([SampleBodies.event(["command": "null", "kind": #""dismiss""#])]))
        #expect(withNull.events.count == 1)
    }

    @Test func nullsCountAsAbsentAndUnknownMembersAreSkipped() throws {
        let event = SampleBodies.event([
            "position": "null", "user": "null", "extra": #"{"nested": [1, 2, {"deep": "\u00e9"}], "n": -1.5e3}"#,
            "tags": #"["a", "b"]"#,
        ])
        let batch = try decode(#"{"version": 2, "sent_at": null, "context": null, "events": [\#(event)], "meta": {"sdk": "ios"}}"#)
        let e = try #require(batch.events.first)
        #expect(e.position == nil)
        #expect(e.user == nil)
        #expect(e.command == "reply")
    }

    @Test func escapedNamesAndValuesAreDecoded() throws {
        let event = #"{"\u0069d": "0193A4C2-6F1E-7C3A-9D2B-4E5F6071829\u0033", "time": "2026-11-29T09:59:58\u002e5Z", "element_\u0074ype": "mail\/message", "command": "r\u00e9ply"}"#
        let batch = try decode(SampleBodies.batch([event]))
        // "r\u00e9ply" is not ASCII: refused; everything before it decoded fine.
        #expect(batch.rejections.first?.code == .invalidCommand)
        #expect(batch.rejections.first?.id == SampleBodies.id0)
        let ok = #"{"\u0069d": "0193A4C2-6F1E-7C3A-9D2B-4E5F6071829\u0033", "time": "2026-11-29T09:59:58\u002e5Z", "element_\u0074ype": "mail\/message", "command": "\u0024Copy"}"#
        let e = try #require(try decode(SampleBodies.batch([ok])).events.first)
        #expect(e.id.description == SampleBodies.id0)
        #expect(e.time == 1_795_946_398_500_000)
        #expect(e.elementType == "mail/message")
        #expect(e.command == "$Copy")
    }

    @Test func boundsAreInclusive() throws {
        let name = String(repeating: "x", count: 128)
        let user = String(repeating: "é", count: 256)
        let event = SampleBodies.event([
            "element_type": "\"\(name)\"", "command": "\"\(name)\"", "user": "\"\(user)\"",
            "session": "\"\(String(repeating: "s", count: 256))\"", "menu_version": "\"\(String(repeating: "v", count: 64))\"",
            "position": "10000", "latency_ms": "3600000",
        ])
        let e = try #require(try decode(SampleBodies.batch([event])).events.first)
        #expect(e.elementType == name)
        #expect(e.user == user)
        #expect(e.position == 10000)
    }

    @Test func emptyUserAndSessionAreAbsent() throws {
        let e = try #require(try decode(SampleBodies.batch([SampleBodies.event(["user": #""""#, "session": #""""#])])).events.first)
        #expect(e.user == nil && e.session == nil)
    }

    struct BadEvent: Sendable, CustomStringConvertible {
        let name: String
        let changes: [String: String?]
        let code: RejectionCode
        let fragment: String
        var description: String { name }
    }

    static let badEvents: [BadEvent] = [
        BadEvent(name: "no id", changes: ["id": nil], code: .missingField, fragment: "id is required"),
        BadEvent(name: "null id", changes: ["id": "null"], code: .missingField, fragment: "id is required"),
        BadEvent(name: "numeric id", changes: ["id": "42"], code: .invalidID, fragment: "id must be a string holding a UUID, found a number"),
        BadEvent(name: "short id", changes: ["id": #""0193a4c2-6f1e-7c3a-9d2b-4e5f6071829""#], code: .invalidID, fragment: "id must be a UUID"),
        BadEvent(name: "non-hex id", changes: ["id": #""0193a4c2-6f1e-7c3a-9d2b-4e5f6071829x""#], code: .invalidID, fragment: "id must be a UUID"),
        BadEvent(name: "no time", changes: ["time": nil], code: .missingField, fragment: "time is required"),
        BadEvent(name: "Feb 30", changes: ["time": #""2026-02-30T10:00:00Z""#], code: .invalidTime, fragment: "RFC 3339"),
        BadEvent(name: "no zone", changes: ["time": #""2026-11-29T10:00:00""#], code: .invalidTime, fragment: "time zone"),
        BadEvent(name: "epoch time", changes: ["time": "1795946398"], code: .invalidTime, fragment: "found a number"),
        BadEvent(name: "no element_type", changes: ["element_type": nil], code: .missingField, fragment: "element_type is required"),
        BadEvent(name: "empty element_type", changes: ["element_type": #""""#], code: .invalidElementType,
                 fragment: "element_type must be 1-128 printable ASCII characters without spaces"),
        BadEvent(name: "element_type with space", changes: ["element_type": #""mail message""#], code: .invalidElementType, fragment: "without spaces"),
        BadEvent(name: "element_type 129", changes: ["element_type": "\"\(String(repeating: "e", count: 129))\""], code: .invalidElementType, fragment: "1-128"),
        BadEvent(name: "element_type NUL", changes: ["element_type": #""mail\u0000message""#], code: .invalidElementType, fragment: "printable"),
        BadEvent(name: "element_type non-ASCII", changes: ["element_type": #""почта""#], code: .invalidElementType, fragment: "ASCII"),
        BadEvent(name: "element_type DEL", changes: ["element_type": #""mail\u007f""#], code: .invalidElementType, fragment: "printable"),
        BadEvent(name: "element_type array", changes: ["element_type": #"["mail"]"#], code: .invalidElementType, fragment: "found an array"),
        BadEvent(name: "select without command", changes: ["command": nil], code: .missingField, fragment: "command is required unless kind is \"dismiss\""),
        BadEvent(name: "command with tab", changes: ["command": #""re\tply""#], code: .invalidCommand, fragment: "command must be 1-128"),
        BadEvent(name: "command object", changes: ["command": #"{"id": "reply"}"#], code: .invalidCommand, fragment: "found an object"),
        BadEvent(name: "dismiss with command", changes: ["kind": #""dismiss""#], code: .invalidCommand, fragment: "dismiss event must not have a command"),
        BadEvent(name: "unknown kind", changes: ["kind": #""click""#], code: .invalidKind, fragment: #"kind must be "select" or "dismiss""#),
        BadEvent(name: "kind in capitals", changes: ["kind": #""SELECT""#], code: .invalidKind, fragment: "kind must be"),
        BadEvent(name: "numeric kind", changes: ["kind": "1"], code: .invalidKind, fragment: "found a number"),
        BadEvent(name: "negative position", changes: ["position": "-1"], code: .invalidField, fragment: "position must be an integer from 0 to 10000"),
        BadEvent(name: "position too big", changes: ["position": "10001"], code: .invalidField, fragment: "position must be an integer"),
        BadEvent(name: "fractional position", changes: ["position": "1.5"], code: .invalidField, fragment: "position"),
        BadEvent(name: "position as string", changes: ["position": #""3""#], code: .invalidField, fragment: "found a string"),
        BadEvent(name: "negative latency", changes: ["latency_ms": "-5"], code: .invalidField, fragment: "latency_ms must be an integer from 0 to 3600000"),
        BadEvent(name: "huge latency", changes: ["latency_ms": "1e30"], code: .invalidField, fragment: "latency_ms"),
        BadEvent(name: "latency beyond Int64", changes: ["latency_ms": "99999999999999999999"], code: .invalidField, fragment: "latency_ms"),
        BadEvent(name: "menu_version 65", changes: ["menu_version": "\"\(String(repeating: "v", count: 65))\""], code: .fieldTooLong,
                 fragment: "menu_version must be at most 64 characters"),
        BadEvent(name: "app_version 65", changes: ["app_version": "\"\(String(repeating: "1", count: 65))\""], code: .fieldTooLong, fragment: "app_version"),
        BadEvent(name: "user 257", changes: ["user": "\"\(String(repeating: "u", count: 257))\""], code: .fieldTooLong,
                 fragment: "user must be at most 256 characters"),
        BadEvent(name: "session 257", changes: ["session": "\"\(String(repeating: "s", count: 257))\""], code: .fieldTooLong, fragment: "session"),
        BadEvent(name: "numeric trigger", changes: ["trigger": "7"], code: .invalidField, fragment: "trigger must be a string, found a number"),
        BadEvent(name: "NUL in locale", changes: ["locale": #""ru\u0000RU""#], code: .invalidText, fragment: "locale must not contain control characters"),
        BadEvent(name: "newline in platform", changes: ["platform": #""iOS\n18""#], code: .invalidText, fragment: "platform must not contain control"),
        // Issue 32: C1 controls and bidi formatting, raw UTF-8 or as \u escapes, in every free-text field.
        BadEvent(name: "CSI (C1) in menu_version", changes: ["menu_version": "\"v2\u{9B}31m\""], code: .invalidText,
                 fragment: "menu_version must not contain control characters (U+0000-U+001F, U+007F-U+009F) or bidirectional"),
        BadEvent(name: "RLO in trigger", changes: ["trigger": "\"txt\u{202E}exe\""], code: .invalidText, fragment: "trigger must not contain"),
        BadEvent(name: "escaped RLI in user", changes: ["user": #""a\u2067b""#], code: .invalidText, fragment: "user must not contain"),
        BadEvent(name: "escaped PDF in session", changes: ["session": #""a\u202cb""#], code: .invalidText, fragment: "session must not contain"),
        BadEvent(name: "ALM in app_version", changes: ["app_version": "\"1\u{61C}2\""], code: .invalidText, fragment: "app_version must not contain"),
        BadEvent(name: "LRM in locale", changes: ["locale": "\"ar\u{200E}\""], code: .invalidText, fragment: "locale must not contain"),
        BadEvent(name: "NEL (C1) in platform", changes: ["platform": #""iOS\u0085""#], code: .invalidText, fragment: "platform must not contain"),
        BadEvent(name: "is_test as string", changes: ["is_test": #""yes""#], code: .invalidField, fragment: "is_test must be true or false"),
        BadEvent(name: "duplicate member", changes: ["command\": \"forward\", \"command": #""reply""#], code: .invalidField,
                 fragment: "command appears more than once"),
    ]

    @Test("one bad field refuses only its event", arguments: badEvents)
    func perEventRejection(_ bad: BadEvent) throws {
        let good1 = SampleBodies.event(id: SampleBodies.uuid(1))
        let good2 = SampleBodies.event(id: SampleBodies.uuid(2))
        let batch = try decode(SampleBodies.batch([good1, SampleBodies.event(bad.changes), good2]))
        #expect(batch.totalCount == 3)
        #expect(batch.events.map(\.index) == [0, 2])
        let rejection = try #require(batch.rejections.first)
        #expect(batch.rejections.count == 1)
        #expect(rejection.index == 1)
        #expect(rejection.code == bad.code)
        #expect(rejection.message.contains(bad.fragment), "\(rejection.message)")
    }

    @Test func theRejectionNamesTheEventEvenWhenTheIdComesLast() throws {
        let event = #"{"time": "bad", "element_type": "x", "command": "y", "id": "\#(SampleBodies.id0)"}"#
        let r = try #require(try decode(SampleBodies.batch([event])).rejections.first)
        #expect(r.code == .invalidTime)
        #expect(r.id == SampleBodies.id0)
        let badID = try #require(try decode(SampleBodies.batch([SampleBodies.event(["id": #""not-a-uuid""#])])).rejections.first)
        #expect(badID.id == "not-a-uuid")
        let longID = "\"\(String(repeating: "z", count: 65))\""
        #expect(try decode(SampleBodies.batch([SampleBodies.event(["id": longID])])).rejections.first?.id == nil)
    }

    @Test func aMixedBatchKeepsItsValidEvents() throws {
        var events: [String] = []
        for i in 0..<20 {
            switch i % 5 {
            case 1: events.append(SampleBodies.event(["element_type": #""has space""#], id: SampleBodies.uuid(i)))
            case 3: events.append("[\(i)]")
            default: events.append(SampleBodies.event(id: SampleBodies.uuid(i)))
            }
        }
        let batch = try decode(SampleBodies.batch(events))
        #expect(batch.totalCount == 20)
        #expect(batch.events.count == 12)
        #expect(batch.rejections.map(\.index) == [1, 3, 6, 8, 11, 13, 16, 18])
        #expect(batch.rejections.filter { $0.code == .invalidEvent }.map(\.index) == [3, 8, 13, 18])
        #expect(batch.rejections.first { $0.code == .invalidEvent }?.message == "an event must be a JSON object, found an array")
        #expect(batch.events.map(\.id) == batch.events.map { EventID(SampleBodies.uuid($0.index))! })
    }

    @Test func emptyEventsArray() throws {
        let batch = try decode(#"{"events": []}"#)
        #expect(batch.events.isEmpty && batch.rejections.isEmpty && batch.totalCount == 0)
    }

    @Test func theEventLimitIsAWholeRequestError() throws {
        let limits = EventLimits(maxEvents: 3)
        #expect(try decode(SampleBodies.batch(Array(repeating: "{}", count: 3)), limits: limits).totalCount == 3)
        do {
            _ = try decode(SampleBodies.batch(Array(repeating: "{}", count: 4)), limits: limits)
            Issue.record("no error")
        } catch {
            #expect(error.kind == .tooManyEvents)
            #expect(error.httpStatus == 413)
            #expect(error.message.contains("at most 3 events"))
        }
    }

    @Test func deepNestingInsideAnEventIsInvalidJSON() throws {
        let deep = String(repeating: "[", count: 14) + String(repeating: "]", count: 14)
        let shallow = String(repeating: "[", count: 13) + String(repeating: "]", count: 13)
        #expect(try decode(SampleBodies.batch([SampleBodies.event(["extra": shallow])])).events.count == 1)
        do {
            _ = try decode(SampleBodies.batch([SampleBodies.event(["extra": deep])]))
            Issue.record("no error")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.message.contains("nesting deeper than 16 levels"))
        }
    }

    @Test func syntaxErrorsSayWhere() {
        let body = "{\"events\": [\n  {\"id\": \"x\"},\n  {\"id\": \"y\",}\n]}"
        do {
            _ = try decode(body)
            Issue.record("no error")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.httpStatus == 400)
            #expect(error.line == 3)
            #expect(error.column == 13)
            #expect(error.offset == 40)
            #expect(error.message.contains("trailing comma"))
        }
    }

    @Test("batch-level problems", arguments: [
        (#"[]"#, "invalid_batch", "must be a JSON object"),
        (#"{}"#, "invalid_batch", "no events member"),
        (#"{"events": {}}"#, "invalid_batch", "events must be an array, found an object"),
        (#"{"events": null}"#, "invalid_batch", "events must be an array, found null"),
        (#"{"events": [], "events": []}"#, "invalid_batch", "events appears more than once"),
        (#"{"sent_at": "yesterday", "events": []}"#, "invalid_batch", "sent_at must be an RFC 3339 timestamp"),
        (#"{"sent_at": 1795946398, "events": []}"#, "invalid_batch", "found a number"),
        (#"{"context": [], "events": []}"#, "invalid_batch", "context must be an object, found an array"),
        (#"{"context": {"platform": 18}, "events": []}"#, "invalid_batch", "context.platform must be a string"),
        (#"{"context": {"is_test": 1}, "events": []}"#, "invalid_batch", "context.is_test must be true or false"),
        (#"{"context": {"locale": "a\u0000"}, "events": []}"#, "invalid_batch", "context.locale must not contain control"),
        (#"{"context": {"locale": "a", "locale": "b"}, "events": []}"#, "invalid_batch", "context.locale appears more than once"),
        ("", "invalid_json", "empty"),
        ("{\"events\": [}", "invalid_json", "expected a value"),
    ])
    func batchErrors(_ body: String, _ code: String, _ fragment: String) {
        do {
            _ = try decode(body)
            Issue.record("no error for \(body)")
        } catch {
            #expect(error.code == code)
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func contextStringsAreBounded() {
        let long = String(repeating: "v", count: 65)
        #expect(throws: BatchError.self) { try decode(#"{"context": {"app_version": "\#(long)"}, "events": []}"#) }
    }

    @Test func decodesFromRawBuffers() throws {
        let bytes = Array(SampleBodies.realisticBatch(count: 40).utf8)
        let fromArray = try decoder.decode(bytes)
        let fromRaw = try bytes.withUnsafeBytes { (raw) throws(BatchError) -> EventBatch in try decoder.decode(raw) }
        #expect(fromArray == fromRaw)
        #expect(fromArray.events.count == 40)
        #expect(fromArray.events.filter { $0.kind == .dismiss }.count == 4)
    }
}
