import Foundation
import HTTP
import MenurankClient
import Testing

/// Delivery against a scripted server: Retry-After, 413 splitting, rejections, a stopped key,
/// `sent_at` on every attempt. Waits are generous upper bounds; the only time checked is a lower
/// bound (a retry never comes sooner than Retry-After), which a loaded machine cannot break.
@Suite("MenurankClient: delivery policy")
struct DeliveryPolicyTests {
    /// Both ways a request can go: the library's own connections (`.automatic` on a plain
    /// `http://` endpoint on Linux) and URLSession.
    static let transports: [MenurankConfiguration.Transport] = [.automatic, .urlSession]

    static func configuration(_ server: ScriptedServer, _ directory: URL,
                              transport: MenurankConfiguration.Transport = .automatic) -> MenurankConfiguration {
        var configuration = MenurankConfiguration(endpoint: server.url, writeKey: "mrk_w_test", directory: directory)
        configuration.transport = transport
        configuration.maxBatchAge = .milliseconds(10)
        configuration.minimumBackoff = .milliseconds(5)
        configuration.maximumBackoff = .milliseconds(50)
        configuration.syncToDisk = false
        return configuration
    }

    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)")
    }

    @Test(arguments: [(429, "rate_limited"), (503, "database_unavailable")], transports)
    func aRetryNeverComesBeforeRetryAfterAndKeepsTheIds(answer: (status: Int, code: String),
                                                         transport: MenurankConfiguration.Transport) throws {
        let (status, code) = answer
        let server = try ScriptedServer { n, ids in
            n == 0 ? ScriptedServer.error(status, code, retryAfter: "1") : ScriptedServer.accepted(ids.count)
        }
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The five events go as one batch, by the flush: with a 10 ms age, a loaded machine could
        // pause the recording thread long enough for part of them to go first (3 requests, seen).
        var configuration = Self.configuration(server, directory, transport: transport)
        configuration.maxBatchAge = .seconds(600)
        let client = try MenurankClient(configuration: configuration)
        let ids = (0..<5).compactMap { client.record(elementType: "mail.message", command: "reply", position: $0)?.uuidString }
        #expect(client.flushAndWait(timeout: .seconds(60)), "answers \(server.requests.map(\.status)), \(client.metrics.lastError ?? "no error")")
        let requests = server.requests
        try #require(requests.count == 2, "\(requests.map(\.status))")
        let gap = Double(requests[1].arrivalNanos - requests[0].arrivalNanos) / 1e9
        #expect(gap >= 1.0, "the retry came \(gap) s after a Retry-After of 1 s")
        #expect(requests[0].ids == ids && requests[1].ids == ids)
        // Each attempt says when it was sent, so the server's skew correction sees this attempt's clock.
        #expect(requests[0].sentAt != nil && requests[1].sentAt != nil)
        // The transport asked for is the one used: URLSession (libcurl) names itself, the
        // library's own connection sends no User-Agent.
        #expect(requests.allSatisfy { ($0.headers["User-Agent"] != nil) == (transport == .urlSession) })
        let metrics = client.metrics
        #expect(metrics.sent == 5 && metrics.queued == 0 && metrics.rejected == 0)
        client.shutdownAndWait()
    }

    @Test(arguments: transports)
    func a413SplitsTheBatchDownToWhatFitsAndASingleEventTooLargeIsRejected(transport: MenurankConfiguration.Transport) throws {
        // Takes at most 3 events; one event is refused even alone.
        let poison = PoisonBox()
        let server = try ScriptedServer { _, ids in
            if ids.count > 3 || (ids.count == 1 && ids[0] == poison.id) {
                return ScriptedServer.error(413, "too_many_events")
            }
            if ids.contains(poison.id) { return ScriptedServer.error(413, "payload_too_large") }
            return ScriptedServer.accepted(ids.count)
        }
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rejections = RejectionLog()
        var configuration = Self.configuration(server, directory, transport: transport)
        configuration.maxBatchAge = .seconds(60)
        configuration.onRejection = { rejections.add($0) }
        let client = try MenurankClient(configuration: configuration)
        var ids: [String] = []
        for n in 0..<20 {
            let id = try #require(client.record(elementType: "files.file", command: "c\(n)"))
            ids.append(id.uuidString)
            if n == 13 { poison.id = id.uuidString }
        }
        #expect(client.flushAndWait(timeout: .seconds(60)), "answers \(server.requests.map(\.status)), \(client.metrics.lastError ?? "no error")")
        let accepted = server.requests.filter { $0.status == 200 }.flatMap(\.ids)
        #expect(accepted == ids.filter { $0 != poison.id }, "every other event once, in order")
        #expect(rejections.all.map(\.id.uuidString) == [poison.id])
        #expect(rejections.all.first?.code == "too_many_events")
        let metrics = client.metrics
        #expect(metrics.sent == 19 && metrics.rejected == 1 && metrics.queued == 0)
        client.shutdownAndWait()
        // Rejected events are removed: a new client on the same journal sends nothing.
        let again = try MenurankClient(configuration: configuration)
        #expect(again.metrics.queued == 0)
        again.shutdownAndWait()
    }

    @Test func perEventRejectionsGoToTheCallbackAndAreNeverRetried() throws {
        let server = try ScriptedServer { _, ids in ScriptedServer.accepted(ids.count, rejected: [(1, "invalid_element_type")]) }
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rejections = RejectionLog()
        var configuration = Self.configuration(server, directory)
        configuration.maxBatchAge = .seconds(60)
        configuration.onRejection = { rejections.add($0) }
        let client = try MenurankClient(configuration: configuration)
        let ids = (0..<3).compactMap { client.record(elementType: $0 == 1 ? "bad type" : "ok", command: "x") }
        #expect(client.flushAndWait(timeout: .seconds(60)), "answers \(server.requests.map(\.status)), \(client.metrics.lastError ?? "no error")")
        #expect(server.requests.count == 1)
        #expect(rejections.all.map(\.id) == [ids[1]])
        #expect(rejections.all.first?.code == "invalid_element_type")
        #expect(client.metrics.rejected == 1 && client.metrics.sent == 2)
        client.shutdownAndWait()
    }

    @Test(arguments: transports)
    func a401StopsDeliveryReportsItOnceAndKeepsTheEvents(transport: MenurankConfiguration.Transport) throws {
        let server = try ScriptedServer { _, _ in ScriptedServer.error(401, "unknown_key") }
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stops = RejectionLog()
        var configuration = Self.configuration(server, directory, transport: transport)
        configuration.onDeliveryStopped = { stops.stop($0) }
        let client = try MenurankClient(configuration: configuration)
        for n in 0..<4 { client.record(elementType: "mail.message", command: "c\(n)") }
        #expect(!client.flushAndWait(timeout: .seconds(60)))
        let metrics = client.metrics
        #expect(metrics.deliveryStopped)
        #expect(metrics.queued == 4 && metrics.sent == 0)
        #expect(metrics.lastError?.contains("401") == true)
        // More records are kept, not sent: the server saw exactly one request.
        client.record(elementType: "mail.message", command: "later")
        client.shutdownAndWait(timeout: .milliseconds(100))
        #expect(server.requests.count == 1)
        #expect(stops.stops.count == 1 && stops.stops.first?.status == 401)
        let reopened = try MenurankClient(configuration: Self.configuration(
            try ScriptedServer { _, ids in ScriptedServer.accepted(ids.count) }, directory))
        #expect(reopened.metrics.queued == 5)
        reopened.shutdownAndWait(timeout: .milliseconds(1))
    }

    /// `count` events with fixed ids, recorded in 5-event batches with `inFlight` sent at once, into
    /// a client whose server holds the first batch's answer until the test signals `gate`, then
    /// answers it with `firstAnswer` (every other batch is accepted at once). Returns when every
    /// batch but the first is acknowledged.
    static func startWithTheFirstAnswerHeld(count: Int, inFlight: Int, directory: URL,
                                            firstAnswer: @escaping @Sendable () -> HTTPResponse) throws
        -> (client: MenurankClient, server: ScriptedServer, ids: [String], gate: DispatchSemaphore)
    {
        let ids = (0..<count).map { String(format: "01890000-0000-7000-8000-%012d", $0) }
        let gate = DispatchSemaphore(value: 0)
        let first = ids[0]
        let server = try ScriptedServer { _, sent in
            if sent.first == first {
                _ = gate.wait(timeout: .now() + 60)
                return firstAnswer()
            }
            return ScriptedServer.accepted(sent.count)
        }
        var configuration = Self.configuration(server, directory)
        configuration.maxBatchEvents = 5
        configuration.maxBatchAge = .seconds(3600)
        configuration.maxConcurrentBatches = inFlight
        let client = try MenurankClient(configuration: configuration)
        for id in ids {
            var event = MenurankEvent(elementType: "mail.message", command: "reply")
            event.id = MenurankEventID(uuidString: id)
            client.record(event)
        }
        let deadline = Date().addingTimeInterval(60)
        while client.metrics.sent < count - 5 && Date() < deadline { usleep(10_000) }
        return (client, server, ids, gate)
    }

    @Test func aBatchAnsweredBeforeTheOneAheadOfItIsSentAgainWhenTheClientStopsInBetween() throws {
        // Two batches in flight; the server holds the first one's answer, then fails it.
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (client, server, ids, gate) = try Self.startWithTheFirstAnswerHeld(count: 10, inFlight: 2, directory: directory) {
            ScriptedServer.error(503, "database_unavailable")
        }
        // The second batch is acknowledged; the cursor stays before the first, which is not.
        #expect(client.metrics.sent == 5)
        #expect(client.metrics.queued == 10)
        #expect(server.requests.map { $0.ids.first }.contains(ids[5]))
        client.shutdownAndWait(timeout: .zero)
        gate.signal()

        // The next client on the journal sends both batches again: the second one's events come
        // twice (the server counts them as duplicates), none is missing.
        let again = try ScriptedServer { _, sent in ScriptedServer.accepted(sent.count) }
        let reopened = try MenurankClient(configuration: Self.configuration(again, directory))
        #expect(reopened.metrics.queued == 10)
        #expect(reopened.flushAndWait(timeout: .seconds(60)))
        #expect(again.requests.flatMap(\.ids).sorted() == ids)
        #expect(reopened.metrics.queued == 0 && reopened.metrics.sent == 10)
        reopened.shutdownAndWait()
    }

    @Test func batchesAnsweredOutOfOrderAreAllAcknowledgedOnceTheFirstIsAndAFlushWaitsForIt() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (client, server, ids, gate) = try Self.startWithTheFirstAnswerHeld(count: 15, inFlight: 3, directory: directory) {
            ScriptedServer.accepted(5)
        }
        #expect(client.metrics.sent == 10 && client.metrics.queued == 15)
        #expect(!client.flushAndWait(timeout: .milliseconds(200)), "the first batch is still unanswered")
        gate.signal()
        #expect(client.flushAndWait(timeout: .seconds(60)), "answers \(server.requests.map(\.status)), \(client.metrics.lastError ?? "no error")")
        #expect(client.metrics.sent == 15 && client.metrics.queued == 0)
        #expect(server.requests.flatMap(\.ids).sorted() == ids, "each batch sent once")
        client.shutdownAndWait()
    }

    @Test func batchesGoOutByCountWithoutWaitingForTheirAge() throws {
        let server = try ScriptedServer { _, ids in ScriptedServer.accepted(ids.count) }
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Self.configuration(server, directory)
        configuration.maxBatchEvents = 10
        configuration.maxBatchAge = .seconds(3600)
        let client = try MenurankClient(configuration: configuration)
        for n in 0..<30 { client.record(elementType: "mail.message", command: "c\(n)") }
        let deadline = Date().addingTimeInterval(60)
        while client.metrics.sent < 30 && Date() < deadline { usleep(10_000) }
        #expect(client.metrics.sent == 30, "sent by count alone, an hour before their age is due")
        #expect(server.requests.allSatisfy { $0.ids.count == 10 })
        client.record(elementType: "mail.message", command: "alone")
        usleep(200_000)
        #expect(client.metrics.queued == 1, "one event waits for its age")
        client.shutdownAndWait(timeout: .seconds(30))
        #expect(server.requests.last?.ids.count == 1, "shutdown flushed it")
    }
}

final class PoisonBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = "-"
    var id: String {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

final class RejectionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var rejections: [MenurankRejection] = []
    private var stopErrors: [MenurankClientError] = []
    func add(_ rejection: MenurankRejection) { lock.lock(); rejections.append(rejection); lock.unlock() }
    func stop(_ error: MenurankClientError) { lock.lock(); stopErrors.append(error); lock.unlock() }
    var all: [MenurankRejection] { lock.lock(); defer { lock.unlock() }; return rejections }
    var stops: [MenurankClientError] { lock.lock(); defer { lock.unlock() }; return stopErrors }
}
