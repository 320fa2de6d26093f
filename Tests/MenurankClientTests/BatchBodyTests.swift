import Events
import Foundation
@testable import MenurankClient
import Testing

/// A batch with its shared context sent once decodes, in the daemon's own decoder, to exactly the
/// events (and rejections) of the same batch sent as recorded.
@Suite("MenurankClient: batch bodies")
struct BatchBodyTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var defaults: MenurankContext
        var events: [MenurankEvent]
        /// Whether the context is expected to go once per batch.
        var shared: Bool
        var description: String { name }
    }

    static func event(_ n: Int, _ change: (inout MenurankEvent) -> Void = { _ in }) -> MenurankEvent {
        var event = MenurankEvent(elementType: "mail.message", command: "c\(n % 3)", position: n % 4, latencyMs: 100 + n,
                                  menuVersion: "2026.11.1", trigger: "right_click")
        event.user = "user-\(n % 5)"
        event.session = "s-\(n % 2)"
        change(&event)
        return event
    }

    static let full = MenurankContext(appVersion: "5.2.1", platform: "iOS 18.1", locale: "de_DE")

    static let cases: [Case] = [
        Case(name: "every event with the client's context", defaults: full, events: (0..<8).map { event($0) }, shared: true),
        Case(name: "test traffic", defaults: MenurankContext(appVersion: "5.2.1", platform: "macOS 15.1", isTest: true),
             events: (0..<5).map { event($0) }, shared: true),
        Case(name: "the locale alone", defaults: MenurankContext(locale: "ja_JP"), events: (0..<3).map { event($0) },
             shared: true),
        Case(name: "one event on another platform", defaults: full,
             events: (0..<6).map { n in event(n) { if n == 4 { $0.platform = "iPadOS 18.1" } } }, shared: false),
        Case(name: "the same context given per event", defaults: MenurankContext(),
             events: (0..<4).map { n in event(n) { $0.appVersion = "4.10.2"; $0.platform = "iOS 18.1"; $0.locale = "en_US" } },
             shared: true),
        Case(name: "no context", defaults: MenurankContext(), events: (0..<4).map { event($0) }, shared: false),
        Case(name: "texts that need escaping, and members lookalikes in them", defaults:
                MenurankContext(appVersion: "5.2 \"beta\"", platform: "x\\\",\"platform\":\"iOS", locale: "ü"),
             events: (0..<4).map { n in event(n) { $0.user = #"a","locale":"en_US"#; $0.session = "\\" } }, shared: true),
        Case(name: "a single event", defaults: full, events: [event(0)], shared: false),
        Case(name: "a dismissal among selections", defaults: full,
             events: (0..<3).map { n in n == 1 ? MenurankEvent(elementType: "mail.message", command: nil, kind: .dismiss) : event(n) },
             shared: true),
    ]

    static func payloads(_ test: Case) -> [ArraySlice<UInt8>] {
        test.events.enumerated().map { n, event in
            ArraySlice(EventPayload.encode(event, id: (UInt64(0x0193_a4c2_6f1e_7c3a), 0x9d2b_4e5f_6071_8200 + UInt64(n)),
                                           millis: 1_795_946_398_120 + Int64(n), defaults: test.defaults))
        }
    }

    @Test(arguments: cases)
    func theSharedContextDecodesToTheSameEvents(_ test: Case) throws {
        let payloads = Self.payloads(test)
        let once = BatchBody.make(payloads, sentAtMillis: 1_795_946_400_000, shareContext: true)
        let each = BatchBody.make(payloads, sentAtMillis: 1_795_946_400_000, shareContext: false)
        #expect(once.sharedContext == test.shared)
        #expect(!each.sharedContext)
        if test.shared { #expect(once.body.count < each.body.count) }
        let decoder = EventBatchDecoder()
        let a = try decoder.decode(once.body)
        let b = try decoder.decode(each.body)
        #expect(a.events.count == test.events.count)
        #expect(a.events == b.events)
        #expect(a.rejections == b.rejections)
        #expect(a.sentAt == b.sentAt)
    }

    /// Why the client resends a 400 with the context per event: a context field the server
    /// refuses sinks a whole batch, where in an event it sinks that event alone.
    @Test func aRefusedContextSinksTheBatchButOnlyItsEventsWhenSentAsRecorded() throws {
        let test = Case(name: "too long", defaults: MenurankContext(appVersion: String(repeating: "9", count: 100)),
                        events: (0..<3).map { Self.event($0) }, shared: true)
        let payloads = Self.payloads(test)
        let once = BatchBody.make(payloads, sentAtMillis: 1_795_946_400_000, shareContext: true)
        #expect(once.sharedContext)
        #expect(throws: BatchError.self) { try EventBatchDecoder().decode(once.body) }
        let each = try EventBatchDecoder().decode(BatchBody.make(payloads, sentAtMillis: 1_795_946_400_000,
                                                                 shareContext: false).body)
        #expect(each.rejections.map(\.code) == Array(repeating: .fieldTooLong, count: 3))
    }

    /// Only context members, each once, at the very end: anything else and nothing is cut.
    @Test(arguments: [
        (#"{"id":"x","platform":"iOS","locale":"de"}"#, #","platform":"iOS","locale":"de""#),
        (#"{"id":"x","is_test":true}"#, #","is_test":true"#),
        (#"{"id":"x","platform":"iOS","trigger":"keyboard"}"#, nil),
        (#"{"id":"x","platform":"iOS","platform":"iOS"}"#, nil),
        (#"{"id":"x","user":"a\",\"platform\":\"b"}"#, nil),
        (#"{"id":"x","platform":"iOS"]"#, nil),
        (#"{"id":"x","is_test":maybe}"#, nil),
    ] as [(String, String?)])
    func onlyTrailingContextMembersAreShared(payload: String, suffix: String?) {
        let found = BatchBody.contextSuffix(ArraySlice(Array(payload.utf8)))
        #expect(found.map { String(decoding: $0, as: UTF8.self) } == suffix)
    }
}
