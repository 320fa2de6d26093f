import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Drives `menurank-client-probe` (an app stand-in recording numbered events) and reads the
/// test's own log of what `record` accepted, to count what the database stored against it.
struct ProbeRun {
    let directory: URL
    let log: URL
    let count: Int
    let url: URL
    let key: String
    /// The client's `maxConcurrentBatches` (the library's default when nil).
    let batchesInFlight: Int?
    /// The journal's segment size (the library's default when nil).
    let segmentBytes: Int?

    init(url: URL, key: String, count: Int, batchesInFlight: Int? = nil, segmentBytes: Int? = nil) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        directory = base.appendingPathComponent("client")
        log = base.appendingPathComponent("log")
        self.count = count
        self.url = url
        self.key = key
        self.batchesInFlight = batchesInFlight
        self.segmentBytes = segmentBytes
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: log.deletingLastPathComponent())
    }

    func start(paceMicroseconds: Int = 200) throws -> ChildProcess {
        try ChildProcess(try RepositoryPaths.builtExecutable("menurank-client-probe"), [
            "--dir", directory.path, "--url", url.absoluteString, "--key", key, "--log", log.path,
            "--count", String(count), "--pace-us", String(paceMicroseconds),
        ] + (batchesInFlight.map { ["--in-flight", String($0)] } ?? [])
          + (segmentBytes.map { ["--segment-bytes", String($0)] } ?? []))
    }

    /// Runs the probe to the end (everything recorded and flushed).
    func finish() throws {
        let probe = try start(paceMicroseconds: 0)
        let status = probe.wait(timeout: 600)
        #expect(status == 0, "probe: \(probe.standardOutput) \(probe.standardError)")
        #expect(probe.standardOutput.contains("flushed"), "\(probe.standardOutput) \(probe.standardError)")
    }

    /// From the log: events `record` returned for (with their ids), and events whose record call
    /// was cut by a kill (intent logged, no return): those may be stored once, or not at all.
    func accepted() throws -> (done: [Int: String], cut: Set<Int>) {
        let text = try String(contentsOf: log, encoding: .utf8)
        var intents = Set<Int>()
        var done: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let seq = Int(fields[1]) else { continue }
            if fields[0] == "i" { intents.insert(seq) }
            if fields[0] == "d", fields.count == 3 { done[seq] = String(fields[2]) }
        }
        return (done, intents.subtracting(done.keys))
    }

    /// Checks the stored events (`seq id` rows, seq being the latency field the probe sets)
    /// against the log: every accepted event exactly once under the id `record` returned, a cut
    /// one at most once, nothing else.
    func verify(stored rows: [String]) throws {
        let (done, cut) = try accepted()
        var stored: [Int: [String]] = [:]
        for row in rows {
            let fields = row.split(separator: " ")
            guard fields.count == 2, let seq = Int(fields[0]) else { continue }
            stored[seq, default: []].append(String(fields[1]))
        }
        #expect(done.count + cut.count == count, "the probe got through its plan")
        var missing = 0
        var doubled = 0
        var wrongID = 0
        for (seq, id) in done {
            let ids = stored[seq] ?? []
            if ids.isEmpty { missing += 1 }
            if ids.count > 1 { doubled += 1 }
            if ids.count == 1 && ids[0] != id { wrongID += 1 }
        }
        let cutTwice = cut.filter { (stored[$0]?.count ?? 0) > 1 }.count
        let unknown = stored.keys.filter { done[$0] == nil && !cut.contains($0) }.count
        #expect(missing == 0, "\(missing) accepted events not stored")
        #expect(doubled == 0 && cutTwice == 0, "\(doubled + cutTwice) events stored twice")
        #expect(wrongID == 0, "\(wrongID) events stored under another id than record returned")
        #expect(unknown == 0, "\(unknown) stored events the log does not know")
        #expect(rows.count == done.count + cut.filter { stored[$0] != nil }.count)
    }
}
