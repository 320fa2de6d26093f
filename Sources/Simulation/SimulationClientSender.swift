import Dispatch
import Foundation
import Locking
import MenurankClient

/// `menurank simulate`'s sender: the generated events go through `MenurankClient`, the library apps
/// link, so the load generator exercises it (journal, batching, retries that keep ids, gzip).
///
/// `concurrency` threads each own a client (a journal of their own in a temporary directory,
/// `batchesInFlight` requests at a time, the library's default unless set); they take batch
/// indexes from a shared counter and record each batch's events with their generated ids and
/// times, paced by `rate`. The client's per-request reports
/// make the summary. Retries go on (backoff, Retry-After) until every event is acknowledged or
/// `giveUpAfter` passes; what is left then counts as unacknowledged batches.
struct SimulationClientSender: Sendable {
    var runner: SimulationRunner
    var giveUpAfter: Duration

    func run() throws(SimulationError) -> SimulationSummary {
        let generator = runner.encoder.generator
        let count = generator.batchCount
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-simulate-\(UUID().uuidString)")
        // The library posts to <endpoint>/v1/events: a URL's own path before that is kept.
        let path = runner.target.path.hasSuffix("/v1/events") ? String(runner.target.path.dropLast(10)) : runner.target.path
        let host = runner.target.host.contains(":") ? "[\(runner.target.host)]" : runner.target.host
        guard let endpoint = URL(string: "http://\(host):\(runner.target.port)\(path)") else {
            throw SimulationError(.invalidURL, "cannot make a URL of \(runner.target.host):\(runner.target.port)")
        }
        let users = (0..<generator.configuration.users).map { generator.userName($0) }
        // With --pregenerate (--library), every event value is made before the clock starts, as the
        // raw sender encodes its bodies first: the figure is then the library's alone.
        let prepared = runner.pregenerate ? SimulationPreparedEvents(all: (0..<count).map { events(ofBatch: $0, users: users) }) : nil
        let next = SimulationCounter()
        let merged = SimulationMergedTally()
        let left = SimulationCounter()
        let group = DispatchGroup()
        let progress = SimulationProgress(total: count)
        let failure = SimulationMergedFailure()
        progress.start()
        defer {
            progress.finish()
            try? FileManager.default.removeItem(at: root)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for worker in 0..<max(1, min(runner.concurrency, max(count, 1))) {
            var configuration = MenurankConfiguration(
                endpoint: endpoint, writeKey: runner.key, directory: root.appendingPathComponent("client-\(worker)"))
            configuration.maxBatchEvents = generator.configuration.batchSize
            configuration.maxBatchBytes = 64 << 20
            // Each thread records whole batches and flushes the last one: the age only has to
            // outlast one batch's recording (on a loaded machine, 50 ms did not, and a fifth of the
            // requests went out as part of a batch).
            configuration.maxBatchAge = .seconds(2)
            configuration.maxJournalBytes = 1 << 40
            // The library's default segment size (1 MiB, not 8): without syncToDisk acknowledged
            // segments are reused, so each client writes on a few MiB of pages already in the page
            // cache instead of new ones all run long.
            configuration.compression = runner.gzip ? .gzip : .none
            configuration.syncToDisk = false
            configuration.minimumBackoff = .milliseconds(200)
            configuration.maximumBackoff = .seconds(5)
            configuration.maximumRetryAfter = .seconds(Int64(runner.maxRetryWait))
            configuration.requestTimeout = runner.timeout
            if let inFlight = runner.batchesInFlight { configuration.maxConcurrentBatches = inFlight }
            let tally = SimulationSharedTally()
            configuration.onRequest = { tally.add($0) }
            let client: MenurankClient
            do { client = try MenurankClient(configuration: configuration) } catch {
                throw SimulationError(.io, "cannot start a client: \(error)")
            }
            group.enter()
            let thread = Thread { [self] in
                record(into: client, next: next, count: count, start: start, users: users, prepared: prepared,
                       progress: progress, failure: failure)
                if !client.flushAndWait(timeout: giveUpAfter) {
                    failure.note(client.metrics.lastError)
                }
                let metrics = client.metrics
                left.add(metrics.queued)
                client.shutdownAndWait(timeout: .zero)
                var counts = tally.value
                counts.eventsSent = metrics.sent + metrics.rejected + metrics.queued + metrics.dropped
                merged.add(counts)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var tally = merged.value
        let unacknowledged = left.total
        tally.batches = count
        let batchSize = generator.configuration.batchSize
        tally.batchesAcknowledged = count - min(count, (unacknowledged + batchSize - 1) / batchSize)
        if let message = failure.value, tally.batchesAcknowledged == 0 && count > 0 {
            throw SimulationError(.server, "no batch was acknowledged: \(message)")
        }
        return tally.summary(elapsedSeconds: elapsed)
    }

    /// One thread: claim a batch, wait for its slot under --rate, record its events.
    private func record(into client: MenurankClient, next: SimulationCounter, count: Int, start: UInt64, users: [String],
                        prepared: SimulationPreparedEvents?, progress: SimulationProgress, failure: SimulationMergedFailure) {
        let generator = runner.encoder.generator
        while true {
            let index = next.take()
            guard index < count else { break }
            if let rate = runner.rate, rate > 0 {
                let due = start + UInt64(Double(index * generator.configuration.batchSize) / rate * 1e9)
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(useconds_t(min((due - now) / 1000, UInt64(UInt32.max)))) }
            }
            // Backpressure: a load generator records faster than any server takes; keep each
            // journal to the batches in flight and one more, ready for the first delivery thread
            // that is free. The wait blocks (no polling, which took the daemon's CPU on a small
            // machine) and, unlike a flush, never lets the pipeline run dry.
            let limit = client.configuration.maxConcurrentBatches * generator.configuration.batchSize
            if !client.waitUntilQueued(atMost: limit, timeout: giveUpAfter) { failure.note(client.metrics.lastError) }
            // The batch's events in one call: one lock for the batch, not one per event.
            let batch = prepared?.all[index] ?? events(ofBatch: index, users: users)
            if client.record(contentsOf: batch) < batch.count { failure.note(client.metrics.lastError) }
            progress.batchDone()
        }
    }

    /// Batch `index` as the values an app would record (with the generated ids and times, unless
    /// live: then the library stamps them as it records).
    private func events(ofBatch index: Int, users: [String]) -> [MenurankEvent] {
        let generator = runner.encoder.generator
        let profile = generator.profile
        let batch = generator.batch(index)
        let context = SimulationContext.all[batch.context]
        return batch.events.map { event in
            let element = profile.elementTypes[event.elementType]
            let items = profile.items(of: event)
            var item = MenurankEvent(elementType: element.name, command: event.item.map { items[$0].command },
                                     kind: event.isDismissal ? .dismiss : .select,
                                     position: event.item.map { items[$0].position },
                                     latencyMs: event.latencyMs,
                                     menuVersion: profile.menuVersion(of: event),
                                     trigger: SimulationContext.triggers[event.trigger])
            if !runner.live {
                item.id = MenurankEventID(uuidString: event.id.text)
                item.time = Date(timeIntervalSince1970: Double(event.timeMillis) / 1000)
            }
            item.user = users[event.user]
            item.session = SimulationGenerator.sessionName(event.session)
            item.appVersion = context.appVersion
            item.platform = context.platform
            item.locale = context.locale
            return item
        }
    }
}

/// Every batch's events, made before the timed phase (read-only once made).
struct SimulationPreparedEvents: Sendable {
    let all: [[MenurankEvent]]
}

/// A client's request reports folded into a tally as they come.
final class SimulationSharedTally: Sendable {
    private let tally = Locked(SimulationTally())

    func add(_ report: MenurankRequestReport) {
        tally.withLock { tally in
            if report.attempt > 0 { tally.retries += 1 }
            tally.bodyBytes += report.bodyBytes
            guard let status = report.status else {
                tally.transportErrors += 1
                return
            }
            tally.responsesByStatus[status, default: 0] += 1
            tally.latenciesMillis.append(report.seconds * 1000)
            if status == 200 {
                tally.accepted += report.accepted
                tally.duplicates += report.duplicates
                tally.rejected += report.rejectionCodes.count
                for code in report.rejectionCodes { tally.rejectedByCode[code, default: 0] += 1 }
            }
        }
    }

    var value: SimulationTally { tally.withLock { $0 } }
}

/// The last error any client reported.
final class SimulationMergedFailure: Sendable {
    private let message = Locked<String?>(nil)
    func note(_ text: String?) {
        guard let text else { return }
        message.withLock { $0 = text }
    }
    var value: String? { message.withLock { $0 } }
}
