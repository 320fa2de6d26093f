import Foundation
import MenurankClient
import Postgres
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The client against the real daemon (the `menurank` binary) and PostgreSQL, in a schema of its
/// own per test.
@Suite("MenurankClient: against menurank serve", TestDatabase.enabled)
struct ClientLiveTests {
    static func withDaemon<T>(flags: [String] = [], _ body: (LiveDaemon) throws -> T) throws -> T {
        try TestDatabase.withSchema(prefix: "client") { schema in
            let daemon = try LiveDaemon(database: schema.connectionString, flags: flags)
            defer { daemon.stop() }
            return try body(daemon)
        }
    }

    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)")
    }

    static let storedSeqAndID = "SELECT latency_ms::text || ' ' || event_id::text FROM events"

    @Test func killedAtTwentyFourRandomPointsMidStreamEveryAcceptedEventIsStoredOnce() throws {
        try Self.withDaemon { daemon in
            // 8 KiB segments (about 60 events each): killed while writing moves on to the next
            // segment, and while an acknowledged one is zeroed and renamed for reuse, too.
            let run = ProbeRun(url: daemon.url, key: daemon.writeKey, count: 6000, segmentBytes: 8192)
            defer { run.cleanUp() }
            var random = SystemRandomNumberGenerator()
            var kills = 0
            for _ in 0..<24 {
                // Paced so that the 6,000-event plan (12 s of recording) outlasts the 24 kills
                // (at most 9.6 s of it): every kill lands mid-stream however fast `record` is.
                let probe = try run.start(paceMicroseconds: 2_000)
                // A random point: while recording, between a send and its cursor update, mid-request.
                usleep(UInt32.random(in: 20_000...400_000, using: &random))
                probe.signal(SIGKILL)
                if probe.wait(timeout: 60) == 128 + SIGKILL { kills += 1 }
            }
            #expect(kills >= 20, "only \(kills) runs were still going when killed")
            try run.finish()
            try run.verify(stored: try daemon.query(Self.storedSeqAndID))
        }
    }

    @Test func batchesAcknowledgedOutOfOrderAcrossTwelveKillsAreStoredOnce() throws {
        try Self.withDaemon { daemon in
            // Four batches in flight, every other answer held back behind the next one's.
            let relay = try ReorderingRelay(daemonPort: daemon.port)
            let run = ProbeRun(url: relay.url, key: daemon.writeKey, count: 4000, batchesInFlight: 4)
            defer { run.cleanUp() }
            var random = SystemRandomNumberGenerator()
            var kills = 0
            for _ in 0..<12 {
                // The 4,000-event plan (8 s of recording) outlasts the 12 kills (at most 4.8 s).
                let probe = try run.start(paceMicroseconds: 2_000)
                usleep(UInt32.random(in: 20_000...400_000, using: &random))
                probe.signal(SIGKILL)
                if probe.wait(timeout: 60) == 128 + SIGKILL { kills += 1 }
            }
            #expect(kills >= 10, "only \(kills) runs were still going when killed")
            try run.finish()
            try run.verify(stored: try daemon.query(Self.storedSeqAndID))
            #expect(relay.outOfOrder > 0, "no acknowledgement overtook an earlier batch's")
        }
    }

    @Test func aClockThatJumpsStillGivesUniqueIdsAndTheServerCorrectsTheTimes() throws {
        try Self.withDaemon { daemon in
            let directory = Self.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = JumpingClock()
            var configuration = MenurankConfiguration(endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory)
            configuration.wallClock = { clock.now() }
            configuration.maxBatchEvents = 10
            configuration.syncToDisk = false
            let client = try MenurankClient(configuration: configuration)
            var ids: [MenurankEventID] = []
            // Ten events at the right time, ten with the clock two hours ahead, ten a day behind:
            // the batches carry the same clock in sent_at, so the server shifts their times back.
            for offset in [0.0, 7200, -86_400] {
                clock.offset = offset
                for n in 0..<10 { ids.append(try #require(client.record(elementType: "mail.message", command: "c\(n)"))) }
                #expect(client.flushAndWait(timeout: .seconds(120)))
            }
            #expect(Set(ids).count == 30)
            #expect(client.metrics.sent == 30 && client.metrics.rejected == 0)
            let spread = try daemon.query("SELECT (extract(epoch FROM max(time) - min(time)))::int::text FROM events")
            #expect(Int(spread.first ?? "") ?? .max < 600, "stored times within minutes of each other: \(spread)")
            #expect(try daemon.query("SELECT count(*)::text FROM events") == ["30"])
            client.shutdownAndWait()
        }
    }

    @Test func theDaemonsOwn413SplitsAnOversizedBatch() throws {
        try Self.withDaemon(flags: ["--max-events-per-batch", "7"]) { daemon in
            let directory = Self.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            var configuration = MenurankConfiguration(endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory)
            configuration.maxBatchEvents = 50
            configuration.maxBatchAge = .seconds(600)
            configuration.syncToDisk = false
            let client = try MenurankClient(configuration: configuration)
            for n in 0..<50 { client.record(elementType: "mail.message", command: "c\(n % 5)", latencyMs: n) }
            #expect(client.flushAndWait(timeout: .seconds(120)))
            #expect(client.metrics.sent == 50 && client.metrics.rejected == 0)
            let stored = try daemon.query("SELECT latency_ms::text FROM events").compactMap { Int($0) }
            #expect(stored.sorted() == Array(0..<50))
            #expect(daemon.log.contains("status=413"), "the daemon did answer 413 first")
            client.shutdownAndWait()
        }
    }

    /// Events recorded many at a time (an importer's, with their own ids and times, and some
    /// without) are stored as recording each in turn stores them: every one once, under its id.
    @Test func eventsRecordedManyAtATimeAreStoredOnceUnderTheirIDs() throws {
        try Self.withDaemon { daemon in
            let directory = Self.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            var configuration = MenurankConfiguration(endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory)
            configuration.maxBatchEvents = 40
            configuration.syncToDisk = false
            let client = try MenurankClient(configuration: configuration)
            let now = Date()
            let events = (0..<120).map { n in
                var event = MenurankEvent(elementType: "mail.message", command: "c\(n % 5)", latencyMs: n)
                if n % 3 != 0 {
                    event.id = MenurankEventID(uuidString: String(format: "0193a4c2-6f1e-7c3a-9d2b-%012x", n))
                    event.time = now.addingTimeInterval(-Double(n))
                }
                return event
            }
            #expect(client.record(contentsOf: events) == 120)
            #expect(client.flushAndWait(timeout: .seconds(120)))
            #expect(client.metrics.sent == 120 && client.metrics.rejected == 0)
            let stored = try daemon.query("SELECT latency_ms::text || ' ' || event_id::text FROM events")
            #expect(stored.count == 120)
            for row in stored {
                let fields = row.split(separator: " ")
                let n = try #require(Int(fields[0]))
                if n % 3 != 0 { #expect(fields[1] == String(format: "0193a4c2-6f1e-7c3a-9d2b-%012x", n)) }
            }
            client.shutdownAndWait()
            #expect(client.record(contentsOf: events) == 0)
            #expect(client.metrics.failedToRecord == 120)
        }
    }

    @Test func menusComeWithTheirVersionAndAreServedFromCacheWhenTheServerIsGone() async throws {
        let root = try RepositoryPaths.root()
        try await TestDatabase.withSchemaAsync(prefix: "client_menus") { database in
            let daemon = try LiveDaemon(database: database, app: "mail")
            let imported = try ChildProcess.run(try RepositoryPaths.menurankBinary(), [
                "menus", "import", root.appendingPathComponent("examples/mail.json").path, "--database", database,
            ])
            #expect(imported.status == 0, "\(imported.standardError)")
            let directory = Self.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = MenurankConfiguration(endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory,
                                                      readKey: daemon.readKey)
            let client = try MenurankClient(configuration: configuration)
            let layouts = try await client.layouts()
            #expect(!layouts.isFromCache)
            #expect(layouts.menuVersion == "2026.11.1")
            let message = try #require(layouts.menus["mail.message"])
            guard case .command(let first) = message.groups.first?.first else {
                Issue.record("no first command")
                return
            }
            #expect(first.id == "reply" && first.title == "Reply")
            #expect(message.groups.flatMap { $0 }.contains { if case .submenu(let title, _) = $0 { title == "Share" } else { false } })
            // A second fetch sends the ETag and gets 304: the same layouts, from the cache file.
            #expect(try await client.layouts() == layouts)
            #expect(daemon.log.contains("status=304"))
            #expect(try await client.layout(for: "mail.message") == message)
            #expect(try await client.layout(for: "no.such.type") == nil)
            daemon.stop()
            let offline = try await client.layouts()
            #expect(offline.isFromCache && offline.menus == layouts.menus)
            await client.shutdown()
        }
    }
}

extension ClientLiveTests {
    @Test func theExampleAppShowsTheServedLayoutAndDeliversItsPicks() throws {
        let root = try RepositoryPaths.root()
        try TestDatabase.withSchema(prefix: "client_example") { schema in
            let daemon = try LiveDaemon(database: schema.connectionString, app: "mail")
            defer { daemon.stop() }
            let imported = try ChildProcess.run(try RepositoryPaths.menurankBinary(), [
                "menus", "import", root.appendingPathComponent("examples/mail.json").path, "--database", schema.connectionString,
            ])
            #expect(imported.status == 0, "\(imported.standardError)")
            let directory = Self.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try ChildProcess.run(try RepositoryPaths.builtExecutable("menurank-example"), [
                "--url", daemon.url.absoluteString, "--write-key", daemon.writeKey, "--read-key", daemon.readKey,
                "--dir", directory.path,
            ])
            #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
            #expect(run.standardOutput.contains("served layout of mail.message (version 2026.11.1)"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("  Reply\n"))
            #expect(run.standardOutput.contains("delivered: true; sent 4, rejected 0, queued 0"), "\(run.standardOutput)")
            #expect(try daemon.query("SELECT count(*)::text FROM events") == ["4"])
            #expect(try daemon.query("SELECT count(*)::text FROM events WHERE command_id IS NULL") == ["1"])
        }
    }
}

/// A wall clock the test moves.
final class JumpingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 0.0
    var offset: Double {
        get { lock.lock(); defer { lock.unlock() }; return seconds }
        set { lock.lock(); seconds = newValue; lock.unlock() }
    }
    func now() -> Date { Date().addingTimeInterval(offset) }
}
