import Foundation
@testable import MenurankClient
import Testing
import TestSupport

/// The context sent once per batch (`BatchBody`) against the real daemon: the same events sent
/// both ways are stored as the same rows, and a context the server refuses as a whole still gets
/// each event its own rejection.
extension ClientLiveTests {
    /// Records `events` through a client of its own (the context once per batch, or per event),
    /// and returns the body bytes it sent.
    static func send(_ events: [MenurankEvent], defaults: MenurankContext, sharesContext: Bool, to daemon: LiveDaemon,
                     rejections: RejectionLog? = nil) throws -> Int {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = MenurankConfiguration(endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory,
                                                  context: defaults)
        configuration.maxBatchEvents = 10
        configuration.maxBatchAge = .seconds(600)
        configuration.compression = .none
        configuration.syncToDisk = false
        configuration.sharesContext = sharesContext
        let bytes = ByteCount()
        configuration.onRequest = { bytes.add($0.bodyBytes) }
        if let rejections { configuration.onRejection = { rejections.add($0) } }
        let client = try MenurankClient(configuration: configuration)
        for event in events { #expect(client.record(event) != nil) }
        #expect(client.flushAndWait(timeout: .seconds(120)))
        client.shutdownAndWait()
        return bytes.total
    }

    @Test func theContextSentOncePerBatchStoresTheSameRowsAsPerEvent() throws {
        try Self.withDaemon { daemon in
            let defaults = MenurankContext(appVersion: "5.2.1", platform: "iOS 18.1", locale: "de_DE", isTest: true)
            let time = Date().addingTimeInterval(-3600)
            // Batches of 10: two with the client's context alone, one where an event overrides
            // the platform (its batch keeps the context per event), one with texts to escape.
            func events(_ ids: [String]) -> [MenurankEvent] {
                ids.enumerated().map { n, id in
                    var event = MenurankEvent(elementType: n % 2 == 0 ? "mail.message" : "files.file",
                                              command: n % 7 == 3 ? nil : "c\(n % 4)", kind: n % 7 == 3 ? .dismiss : .select,
                                              position: n % 5, latencyMs: 10 * n, menuVersion: n < 30 ? "2026.11.1" : "ü \"q\"",
                                              trigger: n % 3 == 0 ? "long_press" : nil)
                    event.id = MenurankEventID(uuidString: id)
                    event.time = time.addingTimeInterval(Double(n))
                    event.user = "person-\(n % 6)"
                    event.session = n < 30 ? "s-\(n % 3)" : #"s","platform":"x"#
                    if n == 24 { event.platform = "iPadOS 18.1" }
                    return event
                }
            }
            let count = 40
            let once = (0..<count).map { _ in UUID().uuidString.lowercased() }
            let each = (0..<count).map { _ in UUID().uuidString.lowercased() }
            let onceBytes = try Self.send(events(once), defaults: defaults, sharesContext: true, to: daemon)
            let eachBytes = try Self.send(events(each), defaults: defaults, sharesContext: false, to: daemon)
            // Three of the four batches went with their context once.
            #expect(onceBytes < eachBytes - 3 * 9 * 40, "\(onceBytes) bytes against \(eachBytes)")
            // Every column but the id, as the database has it (dictionary ids, hashes, flags).
            let rows = try daemon.query("SELECT event_id::text || ' ' || (to_jsonb(e) - 'event_id')::text FROM events e")
            var byID: [String: String] = [:]
            for row in rows {
                let parts = row.split(separator: " ", maxSplits: 1)
                byID[String(parts[0])] = String(parts[1])
            }
            #expect(rows.count == 2 * count)
            for n in 0..<count {
                let a = try #require(byID[once[n]], "event \(n) sent with the shared context is missing")
                let b = try #require(byID[each[n]], "event \(n) sent per event is missing")
                #expect(a == b, "event \(n)")
            }
            // The rows do differ between events: the comparison can fail.
            #expect(Set(byID.values).count == count)
            #expect(try daemon.query("SELECT count(DISTINCT context_id)::text FROM events") != ["1"])
        }
    }

    @Test func aContextTheServerRefusesStillRejectsEachEventAlone() throws {
        try Self.withDaemon { daemon in
            let rejections = RejectionLog()
            let defaults = MenurankContext(appVersion: String(repeating: "9", count: 100), platform: "iOS 18.1")
            let events = (0..<3).map { MenurankEvent(elementType: "mail.message", command: "c\($0)") }
            _ = try Self.send(events, defaults: defaults, sharesContext: true, to: daemon, rejections: rejections)
            #expect(rejections.all.map(\.code) == ["field_too_long", "field_too_long", "field_too_long"])
            #expect(try daemon.query("SELECT count(*)::text FROM events") == ["0"])
            #expect(daemon.log.contains("status=400"), "the shared context was refused first")
        }
    }
}

final class ByteCount: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = 0
    func add(_ count: Int) { lock.lock(); sum += count; lock.unlock() }
    var total: Int { lock.lock(); defer { lock.unlock() }; return sum }
}
