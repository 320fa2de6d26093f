// menurank-client-probe: an app stand-in for MenurankClientTests, which SIGKILL it at random
// points. It records events numbered from a plan and keeps the test's log: `i SEQ` before
// `record` is called (intent) and `d SEQ ID` after it returned (accepted, with the id the library
// made). Restarted, it goes on after the last intent; at the end it flushes and prints `flushed`.
//
//   menurank-client-probe --dir DIR --url URL --key KEY --log FILE --count N [--pace-us U] [--in-flight B]
//                         [--segment-bytes S]
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
guard let dir = options["--dir"], let url = options["--url"].flatMap(URL.init(string:)), let key = options["--key"],
      let logPath = options["--log"], let count = options["--count"].flatMap(Int.init)
else {
    FileHandle.standardError.write(Data("usage: menurank-client-probe --dir D --url U --key K --log F --count N\n".utf8))
    exit(64)
}
let pace = options["--pace-us"].flatMap(UInt32.init) ?? 0

// Where the last run stopped: one past the highest intent.
var next = 0
if let text = try? String(contentsOfFile: logPath, encoding: .utf8) {
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ")
        if fields.count >= 2, fields[0] == "i", let seq = Int(fields[1]) { next = max(next, seq + 1) }
    }
}
let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
func append(_ line: String) {
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { write(log, $0.baseAddress, $0.count) }
}

var configuration = MenurankConfiguration(endpoint: url, writeKey: key, directory: URL(fileURLWithPath: dir),
                                          context: MenurankContext(appVersion: "1.0", platform: "probe"))
configuration.maxBatchEvents = 25
configuration.maxBatchAge = .milliseconds(20)
configuration.minimumBackoff = .milliseconds(50)
configuration.maximumBackoff = .seconds(1)
configuration.requestTimeout = .seconds(10)
// A kill, not a power cut: the page cache survives, so no fsync is needed for the test's claim.
configuration.syncToDisk = false
if let inFlight = options["--in-flight"].flatMap(Int.init) { configuration.maxConcurrentBatches = inFlight }
// Small segments: writing moves on, and acknowledged segments are reused, many times per run.
if let bytes = options["--segment-bytes"].flatMap(Int.init) { configuration.journalSegmentBytes = bytes }
let client: MenurankClient
do {
    client = try MenurankClient(configuration: configuration)
} catch {
    FileHandle.standardError.write(Data("probe: \(error)\n".utf8))
    exit(1)
}

for seq in next..<max(next, count) {
    append("i \(seq)\n")
    guard let id = client.record(elementType: "probe.item", command: "c\(seq % 7)", position: seq % 7,
                                 latencyMs: seq) else {
        FileHandle.standardError.write(Data("probe: record failed: \(client.metrics.lastError ?? "")\n".utf8))
        exit(1)
    }
    append("d \(seq) \(id.uuidString)\n")
    if pace > 0 { usleep(pace) }
}
let flushed = client.flushAndWait(timeout: .seconds(300))
let metrics = client.metrics
print(flushed ? "flushed" : "not flushed: \(metrics.lastError ?? "")")
print("sent \(metrics.sent) rejected \(metrics.rejected) dropped \(metrics.dropped) queued \(metrics.queued)")
client.shutdownAndWait(timeout: .seconds(1))
exit(flushed ? 0 : 1)
