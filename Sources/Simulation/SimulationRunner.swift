import CivilTime
import Dispatch
import Foundation
import HTTP
import MenurankClient

/// Sends generated batches to a daemon. By default through `MenurankClient`, the library apps link
/// (`SimulationClientSender`). With `pregenerate` (the ingestion benchmark) every body is encoded
/// first, and with `raw` each as it is sent (the soak: a daemon near its maximum rate for longer
/// than bodies fit in memory), and sent raw over `concurrency` keep-alive connections, one thread per connection, each
/// with its own `HTTPConnection` (the library's HTTP/1.1 connection, with no journal, batching or
/// retry policy around it), so the benchmark measures the server and not the load generator.
/// Threads take the next batch index from a shared counter, so every batch is sent exactly once
/// (plus bounded retries on 429, 503 and lost connections; a retried batch keeps its event ids, so
/// the server counts it as duplicates at most).
public struct SimulationRunner: Sendable {
    public var encoder: SimulationEncoder
    public var target: SimulationTarget
    public var key: String
    public var concurrency = defaultConcurrency
    /// Connections (or clients) when none are asked for.
    public static let defaultConcurrency = 32
    /// Events per second over all connections; nil sends as fast as the server answers.
    public var rate: Double?
    public var gzip = false
    /// Encode (and compress) every body before the timed phase, so the figure is the server's.
    public var pregenerate = false
    /// With `pregenerate`: send through `MenurankClient` anyway, with every event made before the
    /// timed phase, so the figure is the library's (recording, journal, delivery) and not the
    /// generator's.
    public var library = false
    /// Send with the raw sender (no library), encoding each body as its turn comes: a load that
    /// costs the sender little, for the soak at half the daemon's maximum rate. Not with `library`.
    public var raw = false
    /// Live traffic: each event gets its id and time as it is recorded (through the library, which
    /// stamps it) or sent (`raw`: `SimulationGenerator.liveBatch`), all on today, ids in time order,
    /// as an app's would be, instead of the generated ids and times spread over past days. Not with
    /// `pregenerate`.
    public var live = false
    /// With the library: batches each client keeps in flight (`maxConcurrentBatches`; nil: the
    /// library's default).
    public var batchesInFlight: Int?
    /// Attempts after the first for one batch.
    public var maxRetries = defaultMaxRetries
    public static let defaultMaxRetries = 5
    /// Longest wait for one Retry-After, in seconds.
    public var maxRetryWait = 30.0
    public var timeout: Duration = .seconds(60)

    public init(encoder: SimulationEncoder, target: SimulationTarget, key: String) {
        self.encoder = encoder
        self.target = target
        self.key = key
    }

    public func run() throws(SimulationError) -> SimulationSummary {
        guard (pregenerate || raw) && !library else {
            let giveUp = Duration.seconds(maxRetryWait * Double(maxRetries + 1))
            return try SimulationClientSender(runner: self, giveUpAfter: giveUp).run()
        }
        return runRaw()
    }

    /// The raw sender: pre-encoded bodies, one connection per thread.
    private func runRaw() -> SimulationSummary {
        let count = encoder.generator.batchCount
        let bodies = pregenerate ? SimulationBodies(all: prepareAll(count)) : SimulationBodies(all: nil)
        let next = SimulationCounter()
        let merged = SimulationMergedTally()
        let group = DispatchGroup()
        let progress = SimulationProgress(total: count)
        progress.start()
        defer { progress.finish() }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<max(1, min(concurrency, max(count, 1))) {
            group.enter()
            let thread = Thread { [self] in
                let tally = send(next: next, bodies: bodies, count: count, start: start, progress: progress)
                merged.add(tally)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return merged.value.summary(elapsedSeconds: elapsed)
    }

    /// One thread's loop: claim a batch, wait for its slot under --rate, send it with retries.
    private func send(next: SimulationCounter, bodies: SimulationBodies, count: Int, start: UInt64,
                      progress: SimulationProgress) -> SimulationTally {
        let connection = HTTPConnection(host: target.host, port: target.port, timeout: timeout)
        defer { connection.close() }
        var tally = SimulationTally()
        var headers = [(name: "Authorization", value: "Bearer \(key)"), (name: "Content-Type", value: "application/json")]
        if gzip { headers.append((name: "Content-Encoding", value: "gzip")) }
        while true {
            let index = next.take()
            guard index < count else { break }
            if let rate, rate > 0 {
                let due = start + UInt64(Double(index * encoder.generator.configuration.batchSize) / rate * 1e9)
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(useconds_t(min((due - now) / 1000, UInt64(UInt32.max)))) }
            }
            var body = bodies.all?[index] ?? prepare(index)
            let events = encoder.generator.configuration.eventCount(ofBatch: index)
            tally.batches += 1
            tally.eventsSent += events
            var attempt = 0
            while true {
                if !gzip { SimulationEncoder.patchSentAt(&body, millis: SimulationRunner.nowMillis()) }
                let began = DispatchTime.now().uptimeNanoseconds
                let wait: Double
                do {
                    let response = try connection.send(method: "POST", target: target.path, headers: headers, body: body)
                    tally.latenciesMillis.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
                    tally.responsesByStatus[response.status, default: 0] += 1
                    tally.bodyBytes += body.count
                    if response.status == 200 {
                        if tally.recordAcknowledgement(response.body) { tally.batchesAcknowledged += 1 }
                        break
                    }
                    guard response.status == 429 || response.status == 503 else { break }
                    let retryAfter = response.header("Retry-After").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                    wait = min(retryAfter ?? backoff(attempt), maxRetryWait)
                } catch {
                    tally.transportErrors += 1
                    connection.close()
                    wait = backoff(attempt)
                }
                guard attempt < maxRetries else { break }
                attempt += 1
                tally.retries += 1
                usleep(useconds_t(wait * 1e6))
            }
            progress.batchDone()
        }
        return tally
    }

    /// 0.2 s, 0.4 s, 0.8 s, ... up to 5 s.
    private func backoff(_ attempt: Int) -> Double {
        min(0.2 * Double(1 << min(attempt, 10)), 5)
    }

    /// The body of batch `index` (stamped now when `live`), compressed when --gzip.
    public func prepare(_ index: Int) -> [UInt8] {
        let now = SimulationRunner.nowMillis()
        let batch = live ? encoder.generator.liveBatch(index, nowMillis: now) : encoder.generator.batch(index)
        let body = encoder.body(batch, sentAtMillis: now)
        return gzip ? Gzip.deflate(body) : body
    }

    /// Every body, made on all cores.
    private func prepareAll(_ count: Int) -> [[UInt8]] {
        let slots = SimulationSlots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots.store(prepare(index), at: index)
        }
        return slots.values
    }

    public static func nowMillis() -> Int64 {
        WallClock.system.now().microsecondsSince1970 / 1000
    }
}

/// Pre-generated bodies shared read-only by the sending threads.
public struct SimulationBodies: Sendable {
    public var all: [[UInt8]]?
}
