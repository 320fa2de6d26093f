// menurank-client-bench: the cost of `MenurankClient.record` on the calling thread, for
// scripts/bench-client. Events per second of that thread's CPU time (one core) and heap
// allocations per event (when scripts/bench-client preloads its malloc counter), against a
// baseline loop in the same process: the same events built as values with a UUID's text, which
// any client must do, without the journal. Baseline and record run in interleaved rounds
// (ABAB...), and each ratio is reported as its median over the rounds with the spread.
//
//   menurank-client-bench [--events N] [--rounds R] [--json FILE]
import Foundation
import MenurankClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    options[name] = arguments.popFirst() ?? ""
}
let n = options["--events"].flatMap(Int.init) ?? 200_000
let rounds = options["--rounds"].flatMap(Int.init) ?? 5
guard n > 0, rounds > 0 else {
    FileHandle.standardError.write(Data("usage: menurank-client-bench [--events N] [--rounds R] [--json FILE]\n".utf8))
    exit(64)
}

typealias Counter = @convention(c) () -> UInt
/// `menurank_malloc_count` from the preloaded counter, if there is one.
let mallocCount: Counter? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "menurank_malloc_count")
    .map { unsafeBitCast($0, to: Counter.self) }

func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

struct Measure {
    var eventsPerSecond: Double
    var allocationsPerEvent: Double?
}

@MainActor func measure(_ body: (Int) -> Void) -> Measure {
    let allocationsBefore = mallocCount?()
    let start = threadCPUSeconds()
    for i in 0..<n { body(i) }
    let seconds = threadCPUSeconds() - start
    let allocations = allocationsBefore.flatMap { before in mallocCount.map { Double($0() - before) / Double(n) } }
    return Measure(eventsPerSecond: Double(n) / max(seconds, 1e-9), allocationsPerEvent: allocations)
}

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
configuration.maxJournalBytes = 1 << 40
configuration.journalSegmentBytes = 64 << 20
configuration.minimumBackoff = .seconds(3600)
let client = try MenurankClient(configuration: configuration)
let commands = ["reply", "reply_all", "forward", "archive", "move", "flag", "copy_link", "print", "delete"]

var sink = 0
@MainActor func baselineEvent(_ i: Int) {
    let event = MenurankEvent(elementType: "mail.message", command: commands[i % commands.count], position: i % 9,
                              latencyMs: 400 + i % 900, menuVersion: "2026.11.1", trigger: "long_press")
    sink &+= event.command?.utf8.count ?? 0
    sink &+= UUID().uuidString.utf8.count
}
@MainActor func recordEvent(_ i: Int) {
    client.record(elementType: "mail.message", command: commands[i % commands.count], position: i % 9,
                  latencyMs: 400 + i % 900, menuVersion: "2026.11.1", trigger: "long_press")
}

for i in 0..<1000 {  // warm up
    baselineEvent(i)
    recordEvent(i)
}
var results: [(baseline: Measure, record: Measure)] = []
for round in 1...rounds {
    let baseline = measure(baselineEvent)
    let recorded = measure(recordEvent)
    results.append((baseline, recorded))
    var line = String(format: "round %d: record %.0f events/s (%.2f µs/event), baseline %.0f events/s, record at %.3fx",
                      round, recorded.eventsPerSecond, 1e6 / recorded.eventsPerSecond, baseline.eventsPerSecond,
                      recorded.eventsPerSecond / baseline.eventsPerSecond)
    if let a = recorded.allocationsPerEvent, let b = baseline.allocationsPerEvent {
        line += String(format: "; allocations per event: record %.2f, baseline %.2f", a, b)
    }
    print(line)
}
let queued = client.metrics.queued
client.shutdownAndWait(timeout: .zero)
guard queued == (rounds * n + 1000), sink > 0 else {
    print("error: \(queued) events queued, expected \(rounds * n + 1000)")
    exit(1)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
let ratios = results.map { $0.record.eventsPerSecond / $0.baseline.eventsPerSecond }
let rates = results.map(\.record.eventsPerSecond)
print(String(format: "record: %.0f events/s of one core's CPU time (median of %d rounds; spread %.0f-%.0f), %.2f µs/event",
             median(rates), rounds, rates.min()!, rates.max()!, 1e6 / median(rates)))
print(String(format: "record / baseline: %.3fx (spread %.3f-%.3f)", median(ratios), ratios.min()!, ratios.max()!))
let recordAllocations = results.compactMap(\.record.allocationsPerEvent)
let baselineAllocations = results.compactMap(\.baseline.allocationsPerEvent)
if !recordAllocations.isEmpty {
    print(String(format: "allocations per event: record %.2f, baseline %.2f (medians)", median(recordAllocations),
                 median(baselineAllocations)))
} else {
    print("allocations per event: run through scripts/bench-client to count them")
}
if let path = options["--json"] {
    var document: [String: Any] = [
        "events_per_round": n,
        "record_events_per_s": ["median": median(rates), "min": rates.min()!, "max": rates.max()!, "rounds": rates],
        "ratio_to_baseline": ["median": median(ratios), "min": ratios.min()!, "max": ratios.max()!, "rounds": ratios],
        "baseline_events_per_s": results.map(\.baseline.eventsPerSecond),
    ]
    if !recordAllocations.isEmpty {
        document["allocations_per_event"] = ["record": median(recordAllocations), "baseline": median(baselineAllocations)]
    }
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: path))
}
