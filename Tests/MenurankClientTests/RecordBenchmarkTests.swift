import Foundation
import MenurankClient
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The cost of `record` on the calling thread: events per second of that thread's CPU time (one
/// core), and heap allocations per event when `scripts/bench-client` preloads its malloc counter.
/// A baseline in the same run: the same loop doing only what any client must (building the event
/// value and its id text), so the ratio shows the journal's share. Off by default:
///
///     MENURANK_BENCH=1 swift test -c release --filter RecordBenchmark
///
/// It asserts only that every event was queued, never a duration.
@Suite("RecordBenchmark", .enabled(if: ProcessInfo.processInfo.environment["MENURANK_BENCH"] == "1"))
struct RecordBenchmarkTests {
    typealias Counter = @convention(c) () -> UInt64
    /// `menurank_malloc_count` from the preloaded counter, if there is one.
    static let mallocCount: Counter? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "menurank_malloc_count") else { return nil }
        return unsafeBitCast(symbol, to: Counter.self)
    }()

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func recordOnOneCore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // An endpoint nobody listens on: delivery backs off and stays out of the way.
        var configuration = MenurankConfiguration(endpoint: URL(string: "http://127.0.0.1:9")!, writeKey: "mrk_w_bench",
                                                  directory: directory,
                                                  context: MenurankContext(appVersion: "5.2.1", platform: "iOS 18.1",
                                                                           locale: "ru_RU", user: "5d41402abc4b2a76",
                                                                           session: "s-81"))
        configuration.maxBatchAge = .seconds(3600)
        configuration.maxBatchEvents = 1 << 30
        configuration.maxJournalBytes = 1 << 30
        configuration.journalSegmentBytes = 64 << 20
        configuration.minimumBackoff = .seconds(3600)
        let client = try MenurankClient(configuration: configuration)
        let commands = ["reply", "reply_all", "forward", "archive", "move", "flag", "copy_link", "print", "delete"]
        let n = 200_000

        func measure(_ body: (Int) -> Void) -> (seconds: Double, allocations: Double?) {
            for i in 0..<1000 { body(i) }  // warm up
            let allocationsBefore = Self.mallocCount?()
            let start = Self.threadCPUSeconds()
            for i in 0..<n { body(i) }
            let seconds = Self.threadCPUSeconds() - start
            let allocations = allocationsBefore.flatMap { before in Self.mallocCount.map { Double($0() - before) / Double(n) } }
            return (seconds, allocations)
        }

        var sink = 0
        let baseline = measure { i in
            let event = MenurankEvent(elementType: "mail.message", command: commands[i % commands.count], position: i % 9,
                                      latencyMs: 400 + i % 900, menuVersion: "2026.11.1", trigger: "long_press")
            sink &+= event.command?.utf8.count ?? 0
            sink &+= UUID().uuidString.utf8.count
        }
        let recorded = measure { i in
            client.record(elementType: "mail.message", command: commands[i % commands.count], position: i % 9,
                          latencyMs: 400 + i % 900, menuVersion: "2026.11.1", trigger: "long_press")
        }
        let queued = client.metrics.queued
        #expect(queued == n + 1000)
        #expect(sink > 0)
        let recordRate = Double(n) / recorded.seconds
        let baselineRate = Double(n) / baseline.seconds
        print("record: \(Int(recordRate)) events/s of one core's CPU time (\(String(format: "%.2f", 1e6 / recordRate)) µs/event)")
        print("baseline (event value + a UUID's text, no journal): \(Int(baselineRate)) events/s; record at \(String(format: "%.2f", recordRate / baselineRate))x")
        if let allocations = recorded.allocations, let base = baseline.allocations {
            print("allocations per event: record \(String(format: "%.1f", allocations)), baseline \(String(format: "%.1f", base))")
        } else {
            print("allocations per event: run through scripts/bench-client to count them")
        }
        client.shutdownAndWait(timeout: .zero)
    }
}
