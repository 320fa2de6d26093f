import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client apps link to send menu selections to menurank and fetch their served menus.
///
/// - `record` is thread-safe and does no network I/O: it stamps the event (UUIDv7 id, the wall
///   clock's time), encodes it, and appends it to the on-disk journal before it returns (a copy
///   into the mapped segment on Linux, a `pwrite(2)` elsewhere: see `EventJournal`), so a killed
///   app loses nothing it recorded.
/// - Delivery threads (`maxConcurrentBatches` of them) read batches off the journal in order, each
///   sending one at a time: when `maxBatchEvents` are unread, when the oldest unread event is
///   `maxBatchAge` old, or on `flush`. While one batch is in flight the next is read, encoded and
///   sent. The journal's cursor moves past a batch only once it and every batch before it are
///   acknowledged (`InFlightBatches`), so whatever a crash leaves unacknowledged is sent again; a
///   retry re-sends the same ids, so the server stores every event exactly once however often, and
///   in whatever order, a batch arrives.
/// - Network errors, 408, 429 and 5xx are retried with exponential backoff and full jitter, never
///   sooner than `Retry-After`. A 413 (or a 400) splits the batch in halves down to single events; a
///   single event the server still refuses is reported as rejected. Per-event rejections go to
///   `onRejection` and are removed. 401, 403 (and an endpoint that does not exist) stop delivery
///   and are reported once; the journal keeps the events for a client with a valid key.
public final class MenurankClient: @unchecked Sendable {
    public let configuration: MenurankConfiguration
    let transport: HTTPTransport
    private let backoff: Backoff
    private let eventsURL: URL

    // Guarded by `state` (also the delivery thread's wake-up signal). What `record` touches for
    // every event is marked `@exclusivity(unchecked)`: always under that lock, one thread at a
    // time, so the dynamic checks of overlapping access (a few percent of `record`) buy nothing.
    private let state = NSCondition()
    private let journal: EventJournal
    /// Where `record` encodes an event (`EventPayload.maxSize` of most events fits), before the
    /// journal copies it in.
    private let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: EventJournal.maxPayload)
    @exclusivity(unchecked) private var ids = UUIDv7Generator()
    /// The date part of the last event's time (under `state`).
    @exclusivity(unchecked) private var days = WireTime.Days()
    @exclusivity(unchecked) private var counts = MenurankMetrics(queued: 0, sent: 0, rejected: 0, dropped: 0, failedToRecord: 0,
                                         lastError: nil, deliveryStopped: false)
    /// Monotonic time of the oldest append not yet read into a batch.
    @exclusivity(unchecked) private var unsentSince: UInt64?
    @exclusivity(unchecked) private var inFlight = InFlightBatches()
    /// The `menuVersion` of the layout last handed out per element type (`layouts`, `layout(for:)`):
    /// stamped on that element type's events that give none, so a person in a rollout's arm reports
    /// the layout they were shown.
    @exclusivity(unchecked) private var shownMenuVersions: [String: String] = [:]
    private var flushWaiters: [FlushWaiter] = []
    private var stopRequested = false
    @exclusivity(unchecked) private var closed = false
    private var random: Xoshiro256
    private let deliveryThreads: Int
    private let finished = DispatchSemaphore(value: 0)
    /// Serializes writes of the cursor file: the newest acknowledgement wins, whichever delivery
    /// thread gets there first.
    private let persisting = NSLock()
    private var cursorGeneration = 0
    private var persistedGeneration = 0
    /// The cursor file, open from the first acknowledgement until shutdown (under `persisting`).
    private var cursorFile: Int32 = -1

    private final class FlushWaiter: @unchecked Sendable {
        enum Until {
            /// Everything before this position acknowledged (`flush`).
            case acknowledged(EventJournal.Position)
            /// At most this many events queued (`waitUntilQueued`): sends nothing early.
            case queuedAtMost(Int)
        }
        let until: Until
        let done: @Sendable (Bool) -> Void
        var fired = false
        init(until: Until, done: @escaping @Sendable (Bool) -> Void) {
            self.until = until
            self.done = done
        }

        /// Whether a flush waits for the events before `position`.
        func needs(before position: EventJournal.Position) -> Bool {
            if case .acknowledged(let target) = until { return target > position }
            return false
        }

        func isSatisfied(cursor: EventJournal.Position, pending: Int) -> Bool {
            switch until {
            case .acknowledged(let target): return pending == 0 || target <= cursor
            case .queuedAtMost(let limit): return pending <= limit
            }
        }
    }

    /// Opens (or creates) the journal in `configuration.directory`, reading what an earlier run left
    /// there, and starts delivering.
    public init(configuration: MenurankConfiguration) throws(MenurankClientError) {
        self.configuration = configuration
        transport = HTTPTransport(endpoint: configuration.endpoint, timeout: configuration.requestTimeout,
                                  connections: configuration.maxConcurrentBatches + 1, kind: configuration.transport)
        backoff = Backoff(base: MonotonicClock.seconds(configuration.minimumBackoff),
                          cap: MonotonicClock.seconds(configuration.maximumBackoff),
                          maxRetryAfter: MonotonicClock.seconds(configuration.maximumRetryAfter))
        eventsURL = configuration.endpoint.appendingPathComponent("v1").appendingPathComponent("events")
        do {
            try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
        } catch {
            throw MenurankClientError(.journal, "cannot create \(configuration.directory.path): \(error.localizedDescription)")
        }
        do {
            journal = try EventJournal(directory: configuration.directory.appendingPathComponent("journal").path,
                                       maxBytes: configuration.maxJournalBytes,
                                       segmentBytes: configuration.journalSegmentBytes,
                                       recycles: !configuration.syncToDisk)
        } catch {
            throw MenurankClientError(.journal, error.description)
        }
        var system = SystemRandomNumberGenerator()
        random = Xoshiro256(seed: (system.next(), system.next(), system.next(), system.next()))
        if journal.pendingCount > 0 {
            // Left by an earlier run: due now.
            unsentSince = MonotonicClock.now() &- MonotonicClock.nanoseconds(configuration.maxBatchAge)
        }
        if journal.tornBytesRepaired > 0 {
            counts.lastError = "journal: cut \(journal.tornBytesRepaired) bytes of a torn last write"
        }
        let damage = journal.damage
        if damage.records > 0 || !damage.messages.isEmpty {
            // Never silent: counted as dropped, said in lastError, and logged.
            counts.dropped += damage.records
            let text = "journal: \(damage.records) records lost to damage (\(damage.messages.joined(separator: "; ")))"
            counts.lastError = text
            Self.log(text)
        }
        deliveryThreads = max(1, configuration.maxConcurrentBatches)
        for number in 0..<deliveryThreads {
            let thread = Thread { [self] in
                deliveryLoop()
                finished.signal()
            }
            thread.name = "menurank-delivery-\(number)"
            thread.start()
        }
    }

    deinit {
        scratch.deallocate()
    }

    // MARK: Recording

    /// Records that a person picked `command` from the context menu of an `elementType` element.
    /// Returns the event's id, or nil when it could not be queued (the client is shut down, or the
    /// journal's disk failed: see `metrics.lastError`).
    @discardableResult
    public func record(elementType: String, command: String, position: Int? = nil, latencyMs: Int? = nil,
                       menuVersion: String? = nil, trigger: String? = nil) -> MenurankEventID? {
        record(MenurankEvent(elementType: elementType, command: command, kind: .select, position: position,
                             latencyMs: latencyMs, menuVersion: menuVersion, trigger: trigger))
    }

    /// Records that a person opened the context menu of an `elementType` element and closed it
    /// without picking anything.
    @discardableResult
    public func recordDismissal(elementType: String, latencyMs: Int? = nil, menuVersion: String? = nil,
                                trigger: String? = nil) -> MenurankEventID? {
        record(MenurankEvent(elementType: elementType, command: nil, kind: .dismiss, latencyMs: latencyMs,
                             menuVersion: menuVersion, trigger: trigger))
    }

    /// Records an event described in full; `id` and `time` are made now when nil.
    @discardableResult
    public func record(_ event: MenurankEvent) -> MenurankEventID? {
        // The clock only when the event needs it (an importer or `simulate` gives both id and time).
        let clockMillis = event.id != nil && event.time != nil ? 0 : Self.millis(configuration.wallClock())
        // One lock: the id, the encoding (into a buffer kept from one event to the next) and the
        // append, in the order the ids are made.
        state.lock()
        defer { state.unlock() }
        return recordLocked(event, clockMillis: clockMillis)
    }

    /// Records several events described in full (an importer's, a replay's), in order, under one
    /// lock: the same as `record` for each in turn. Returns how many were queued; the others (the
    /// client shut down, the journal's disk failed) are counted in `metrics.failedToRecord`.
    @discardableResult
    public func record(contentsOf events: [MenurankEvent]) -> Int {
        events.withUnsafeBufferPointer { events in
            var queued = 0
            state.lock()
            defer { state.unlock() }
            for i in events.indices {
                let clockMillis = events[i].id != nil && events[i].time != nil ? 0 : Self.millis(configuration.wallClock())
                if recordLocked(events[i], clockMillis: clockMillis) != nil { queued += 1 }
            }
            return queued
        }
    }

    /// Remembers the menu version of each layout handed out, for the events that give none.
    func remember(_ layouts: some Sequence<MenuLayout>) {
        state.lock()
        defer { state.unlock() }
        for layout in layouts { shownMenuVersions[layout.elementType] = layout.menuVersion }
    }

    /// Stamps, encodes and journals one event (under `state`).
    private func recordLocked(_ event: MenurankEvent, clockMillis: Int64) -> MenurankEventID? {
        if event.menuVersion == nil, !shownMenuVersions.isEmpty, let shown = shownMenuVersions[event.elementType] {
            var stamped = event
            stamped.menuVersion = shown
            return recordLocked(stamped, clockMillis: clockMillis)
        }
        guard !closed else {
            counts.failedToRecord += 1
            counts.lastError = "record after shutdown"
            return nil
        }
        let millis = event.time.map(Self.millis) ?? clockMillis
        let bound = EventPayload.maxSize(event, defaults: configuration.context)
        let id: (high: UInt64, low: UInt64)? = event.id == nil ? ids.next(millis: clockMillis) : nil
        do {
            let dropped: Int
            if bound <= scratch.count {
                var writer = ByteWriter(scratch.baseAddress!)
                EventPayload.write(event, id: id, millis: millis, defaults: configuration.context, to: &writer, days: &days)
                dropped = try journal.append(payload: UnsafeRawBufferPointer(start: scratch.baseAddress, count: writer.count))
            } else {
                // Only an event with long texts gets here: measured exactly, it may still fit.
                let payload = EventPayload.encode(event, id: id, millis: millis, defaults: configuration.context)
                guard payload.count <= EventJournal.maxPayload else {
                    counts.failedToRecord += 1
                    counts.lastError = "event of \(payload.count) bytes is over the journal's \(EventJournal.maxPayload)-byte record limit"
                    return nil
                }
                dropped = try journal.append(payload)
            }
            counts.dropped += dropped
        } catch {
            counts.failedToRecord += 1
            counts.lastError = "journal: \(error.description)"
            return nil
        }
        // Wake the delivery threads only when this event changes what they wait for: the first
        // unsent event starts the age clock, a full batch is due now. (A broadcast: a thread
        // sleeping out a backoff also waits on `state`, and must not take the only wake-up.)
        if unsentSince == nil {
            unsentSince = MonotonicClock.now()
            state.broadcast()
        } else if journal.count(from: inFlight.nextRead(cursor: journal.cursor)) == configuration.maxBatchEvents {
            state.broadcast()
        }
        if let given = event.id { return given }
        return id.map(MenurankEventID.init(bits:))
    }

    static func millis(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    // MARK: Metrics, flush, shutdown

    public var metrics: MenurankMetrics {
        state.lock()
        defer { state.unlock() }
        var value = counts
        value.queued = journal.pendingCount
        return value
    }

    /// Sends everything recorded so far now, and returns true once the server has acknowledged it
    /// all (false on timeout or when delivery has stopped).
    public func flush(timeout: Duration = .seconds(30)) async -> Bool {
        await withCheckedContinuation { continuation in
            requestFlush(timeout: timeout) { continuation.resume(returning: $0) }
        }
    }

    /// `flush` for threads that may block (command-line tools, tests).
    public func flushAndWait(timeout: Duration = .seconds(30)) -> Bool {
        state.lock()
        let end = journal.end
        state.unlock()
        return blockingWait(until: .acknowledged(end), timeout: timeout)
    }

    /// Blocks until at most `limit` events are queued (recorded and not yet acknowledged), without
    /// sending a partial batch early: a load generator's backpressure that keeps batches flowing
    /// (`flushAndWait` would let the pipeline run dry). False on timeout or when delivery stopped.
    package func waitUntilQueued(atMost limit: Int, timeout: Duration = .seconds(30)) -> Bool {
        blockingWait(until: .queuedAtMost(limit), timeout: timeout)
    }

    /// Blocks the calling thread until `until` holds (true), delivery stops or `timeout` passes
    /// (false); the timeout is the semaphore's own, with no timer scheduled on a dispatch queue
    /// (`simulate` waits like this once per batch of each client).
    private func blockingWait(until: FlushWaiter.Until, timeout: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let result = FlagBox()
        guard let waiter = register(until: until, { ok in
            result.set(ok)
            done.signal()
        }) else { return result.value }
        if done.wait(timeout: .now() + MonotonicClock.seconds(timeout)) == .timedOut {
            state.lock()
            let due = !waiter.fired
            waiter.fired = true
            flushWaiters.removeAll { $0 === waiter }
            state.unlock()
            if due { return false }
            // Fired meanwhile: its answer is on the way.
            done.wait()
        }
        return result.value
    }

    /// Adds a waiter that `done` completes; nil when `done` was called at once (already satisfied,
    /// or delivery stopped).
    private func register(until: FlushWaiter.Until, _ done: @escaping @Sendable (Bool) -> Void) -> FlushWaiter? {
        state.lock()
        let waiter = FlushWaiter(until: until, done: done)
        if waiter.isSatisfied(cursor: journal.cursor, pending: journal.pendingCount) {
            state.unlock()
            done(true)
            return nil
        }
        if counts.deliveryStopped || stopRequested {
            state.unlock()
            done(false)
            return nil
        }
        flushWaiters.append(waiter)
        state.broadcast()
        state.unlock()
        return waiter
    }

    private func requestFlush(timeout: Duration, _ done: @escaping @Sendable (Bool) -> Void) {
        state.lock()
        let end = journal.end
        state.unlock()
        wait(until: .acknowledged(end), timeout: timeout, done)
    }

    private func wait(until: FlushWaiter.Until, timeout: Duration, _ done: @escaping @Sendable (Bool) -> Void) {
        guard let waiter = register(until: until, done) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + MonotonicClock.seconds(timeout)) { [self] in
            state.lock()
            let due = !waiter.fired
            waiter.fired = true
            flushWaiters.removeAll { $0 === waiter }
            state.unlock()
            if due { waiter.done(false) }
        }
    }

    /// Stops recording, sends what is queued for up to `timeout`, then stops the delivery thread and
    /// closes the journal. What was not acknowledged stays in the journal for the next client.
    public func shutdown(timeout: Duration = .seconds(5)) async {
        _ = await flush(timeout: timeout)
        stopDelivery()
    }

    /// `shutdown` for threads that may block.
    public func shutdownAndWait(timeout: Duration = .seconds(5)) {
        _ = flushAndWait(timeout: timeout)
        stopDelivery()
    }

    private func stopDelivery() {
        state.lock()
        if closed {
            state.unlock()
            return
        }
        closed = true
        stopRequested = true
        state.broadcast()
        state.unlock()
        transport.cancelAll()
        for _ in 0..<deliveryThreads { finished.wait() }
        persisting.lock()
        if cursorFile >= 0 { POSIX.close(cursorFile) }
        cursorFile = -1
        persisting.unlock()
        state.lock()
        journal.close()
        let waiters = flushWaiters
        flushWaiters = []
        waiters.forEach { $0.fired = true }
        state.unlock()
        waiters.forEach { $0.done(false) }
    }

    // MARK: Delivery

    private enum Outcome {
        case acknowledged
        case stopped
        case interrupted
    }

    /// One delivery thread: waits for a due batch, takes the next one off the journal (after the
    /// batches other threads have in flight), delivers it, and again.
    private func deliveryLoop() {
        let maxAge = MonotonicClock.nanoseconds(configuration.maxBatchAge)
        // Kept from one batch to the next: the records read, and the body's storage (a batch's
        // body is over 100 KB; a fresh one each time grew and shrank the heap, with page faults).
        var batch: [EventJournal.Record] = []
        var body: [UInt8] = []
        while true {
            state.lock()
            var slot: InFlightBatches.Batch?
            while slot == nil {
                if stopRequested {
                    state.unlock()
                    return
                }
                let from = inFlight.nextRead(cursor: journal.cursor)
                let unread = counts.deliveryStopped ? 0 : journal.count(from: from)
                guard unread > 0 else {
                    unsentSince = nil
                    state.wait()
                    continue
                }
                let now = MonotonicClock.now()
                let since = unsentSince ?? now
                let due = unread >= configuration.maxBatchEvents || now &- since >= maxAge
                    || flushWaiters.contains { $0.needs(before: from) }
                if !due {
                    _ = state.wait(until: Date(timeIntervalSinceNow: Double(maxAge - (now &- since)) / 1e9))
                    continue
                }
                do {
                    try journal.read(from: from, maxEvents: configuration.maxBatchEvents,
                                     maxBytes: configuration.maxBatchBytes, into: &batch)
                } catch {
                    counts.lastError = "journal: \(error.description)"
                    _ = state.wait(until: Date(timeIntervalSinceNow: 1))
                    continue
                }
                if let last = batch.last {
                    slot = inFlight.add(end: last.end)
                    journal.inFlightEnd = last.end
                    if last.end >= journal.end { unsentSince = nil }
                } else {
                    // Nothing readable (records skipped as damaged): settled once the batches
                    // before them are.
                    let end = journal.end
                    inFlight.add(end: end).acknowledgedThrough = end
                    let update = advanceCursor()
                    state.unlock()
                    update.map(persist)
                    fireWaiters()
                    state.lock()
                }
            }
            state.unlock()
            let outcome = slot.map { deliver(batch[...], of: $0, body: &body) }
            batch.removeAll(keepingCapacity: true)
            if outcome == .interrupted { return }
        }
    }

    /// Sends `records` (a batch, or a part of one after a 413) until the server acknowledges them,
    /// delivery stops, or the client shuts down.
    /// `body` is storage to reuse for the request's body.
    private func deliver(_ records: ArraySlice<EventJournal.Record>, of batch: InFlightBatches.Batch,
                         body: inout [UInt8]) -> Outcome {
        var attempt = 0
        var shareContext = true
        while true {
            state.lock()
            let stop = stopRequested
            state.unlock()
            if stop { return .interrupted }

            var (outgoing, sharedContext) = request(for: records, shareContext: shareContext, reusing: &body)
            let began = MonotonicClock.now()
            let response = transport.send(outgoing)
            let bodyBytes = outgoing.body.count
            // The storage goes back for the next request (the transport keeps no reference).
            swap(&body, &outgoing.body)
            var answer200: Acknowledgement?
            if case .success(let answer) = response, (200..<300).contains(answer.status) {
                answer200 = Acknowledgement(parsing: answer.body, events: records.count)
            }
            if let observe = configuration.onRequest {
                var report = MenurankRequestReport(status: nil, events: records.count, accepted: 0, duplicates: 0,
                                                   rejectionCodes: [], bodyBytes: bodyBytes,
                                                   seconds: Double(MonotonicClock.now() - began) / 1e9, attempt: attempt)
                if case .success(let answer) = response {
                    report.status = answer.status
                    if answer.status == 200, let answer200 {
                        report.accepted = answer200.accepted
                        report.duplicates = answer200.duplicates
                        report.rejectionCodes = answer200.rejectionCodes
                    }
                }
                observe(report)
            }
            if sharedContext, case .success(let answer) = response, answer.status == 400 {
                // The shared context may be what the server refused (it checks a batch's context
                // as a whole): send the events as recorded, so a bad field is rejected with its
                // event alone, as it would have been.
                shareContext = false
                continue
            }
            let decision: DeliveryDecision
            var retryAfter: Double?
            var serverError: (code: String, message: String)?
            switch response {
            case .failure(let failure):
                decision = .retry
                note("network: \(failure.description)")
            case .success(let answer):
                decision = DeliveryDecision.classify(status: answer.status)
                if decision == .acknowledged {
                    acknowledge(records, of: batch, rejecting: answer200?.rejections ?? [])
                    return .acknowledged
                }
                serverError = Self.errorBody(answer.body)
                retryAfter = Backoff.parseRetryAfter(answer.header("Retry-After"),
                                                     now: configuration.wallClock().timeIntervalSince1970)
                note("HTTP \(answer.status)" + (serverError.map { " \($0.code): \($0.message)" } ?? ""))
                if decision == .stop {
                    let error = MenurankClientError(
                        answer.status == 401 || answer.status == 403 ? .unauthorized : .endpoint,
                        "delivery stopped: HTTP \(answer.status)" + (serverError.map { " \($0.code): \($0.message)" } ?? ""),
                        status: answer.status)
                    // The batch stays in flight, unacknowledged: the cursor never passes it, and the
                    // journal keeps it (and all after it) for a client with a valid key.
                    state.lock()
                    let first = !counts.deliveryStopped
                    counts.deliveryStopped = true
                    journal.inFlightEnd = nil
                    state.unlock()
                    if first { configuration.onDeliveryStopped?(error) }
                    state.lock()
                    let waiters = flushWaiters.filter { !$0.fired }
                    flushWaiters = []
                    waiters.forEach { $0.fired = true }
                    state.unlock()
                    waiters.forEach { $0.done(false) }
                    return .stopped
                }
            }
            switch decision {
            case .split(let code):
                if records.count == 1 {
                    let message = serverError?.message ?? "the server refused this event on its own"
                    acknowledge(records, of: batch, rejecting: [(0, serverError?.code ?? code, message)])
                    return .acknowledged
                }
                let middle = records.startIndex + records.count / 2
                let first = deliver(records[records.startIndex..<middle], of: batch, body: &body)
                guard first == .acknowledged else { return first }
                return deliver(records[middle...], of: batch, body: &body)
            default:
                state.lock()
                let unit = Double(random.next() >> 11) / Double(1 << 53)
                state.unlock()
                let wait = backoff.delay(attempt: attempt, retryAfter: retryAfter, unit: unit)
                attempt += 1
                if !sleep(seconds: wait) { return .interrupted }
            }
        }
    }

    /// Waits `seconds` on the monotonic clock; false when shutdown interrupted the wait.
    private func sleep(seconds: Double) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(max(0, seconds) * 1e9)
        state.lock()
        defer { state.unlock() }
        while !stopRequested {
            let now = MonotonicClock.now()
            if now >= deadline { return true }
            _ = state.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
        return false
    }

    /// One line on standard error, for what an app's logs must show even when it never reads
    /// `metrics` (events lost to a damaged journal).
    static func log(_ message: String) {
        FileHandle.standardError.write(Data("menurank: \(message)\n".utf8))
    }

    private func note(_ message: String) {
        state.lock()
        counts.lastError = message
        state.unlock()
    }

    /// The request for `records`, with the context they all share sent once unless
    /// `shareContext` is false (see `BatchBody`); `sharedContext` says whether it was.
    private func request(for records: ArraySlice<EventJournal.Record>, shareContext: Bool,
                         reusing storage: inout [UInt8]) -> (request: TransportRequest, sharedContext: Bool) {
        var body: [UInt8] = []
        swap(&body, &storage)
        let sharedContext = BatchBody.make(records.lazy.map { $0.payload }, sentAtMillis: Self.millis(configuration.wallClock()),
                                           shareContext: shareContext && configuration.sharesContext, into: &body)
        var headers = [(name: "Authorization", value: "Bearer \(configuration.writeKey)"),
                       (name: "Content-Type", value: "application/json")]
        if configuration.compression == .gzip {
            headers.append((name: "Content-Encoding", value: "gzip"))
            body = GzipEncoder.compress(body)
        }
        return (TransportRequest(method: "POST", url: eventsURL, headers: headers, body: body), sharedContext)
    }

    /// The server acknowledged `records` (all of `batch`, or its next part after a split), with
    /// these per-event rejections: reports them, counts, and moves the cursor as far as every
    /// batch before is acknowledged too.
    private func acknowledge(_ records: ArraySlice<EventJournal.Record>, of batch: InFlightBatches.Batch,
                             rejecting rejections: [(Int, String, String)]) {
        guard let end = records.last?.end else { return }
        // Rejections are reported before the batch counts as acknowledged: a flush that it (or
        // another thread's batch before it) completes returns after its rejections were seen.
        if let report = configuration.onRejection {
            for (index, code, message) in rejections {
                let payload = records[records.startIndex + index].payload
                report(MenurankRejection(id: MenurankEventID(uuidString: EventPayload.id(of: payload)), code: code,
                                         message: message))
            }
        }
        state.lock()
        batch.acknowledgedThrough = end
        counts.sent += records.count - rejections.count
        counts.rejected += rejections.count
        let update = advanceCursor()
        state.unlock()
        update.map(persist)
        fireWaiters()
    }

    /// A cursor to write: the journal's new cursor text and what it makes deletable.
    private struct CursorUpdate {
        var generation: Int
        var text: [UInt8]
        var deletable: [String]
        var syncHandle: Int32?
    }

    /// Moves the journal's cursor past the acknowledged batches at the front (under `state`).
    private func advanceCursor() -> CursorUpdate? {
        let through = inFlight.settle()
        journal.inFlightEnd = counts.deliveryStopped ? nil : inFlight.lastEnd
        guard let through, through > journal.cursor else { return nil }
        let (text, deletable) = journal.acknowledge(through: through)
        cursorGeneration += 1
        return CursorUpdate(generation: cursorGeneration, text: text, deletable: deletable,
                            syncHandle: configuration.syncToDisk ? journal.duplicateWriteHandle() : nil)
    }

    /// Writes the cursor file outside `state` (an fsync must not hold up `record`); an update older
    /// than one already written only deletes its segments, which the newer cursor is past too.
    private func persist(_ update: CursorUpdate) {
        persisting.lock()
        defer { persisting.unlock() }
        guard update.generation > persistedGeneration else {
            if let handle = update.syncHandle { POSIX.close(handle) }
            for path in update.deletable { POSIX.remove(path) }
            return
        }
        // The records first (with syncToDisk), so the cursor never outlives them.
        if let handle = update.syncHandle {
            POSIX.sync(handle)
            POSIX.close(handle)
        }
        do {
            if cursorFile < 0 { cursorFile = try EventJournal.openCursor(journal.cursorFilePath) }
            try EventJournal.persist(cursorText: update.text, to: cursorFile, path: journal.cursorFilePath,
                                     deletable: update.deletable, syncHandle: nil,
                                     durable: configuration.syncToDisk, slot: update.generation % 2)
            persistedGeneration = update.generation
        } catch {
            // Opened again for the next update.
            if cursorFile >= 0 { POSIX.close(cursorFile) }
            cursorFile = -1
            note("journal: \(error.description)")
        }
    }

    /// Completes the waiters (flush, queue) that the cursor's position now satisfies.
    private func fireWaiters() {
        state.lock()
        let cursor = journal.cursor
        let pending = journal.pendingCount
        let done = flushWaiters.filter { !$0.fired && $0.isSatisfied(cursor: cursor, pending: pending) }
        done.forEach { $0.fired = true }
        if !done.isEmpty { flushWaiters.removeAll { $0.fired } }
        state.unlock()
        done.forEach { $0.done(true) }
    }

    private static func errorBody(_ body: [UInt8]) -> (code: String, message: String)? {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let code = object["error"] as? String
        else { return nil }
        return (code, object["message"] as? String ?? "")
    }
}

/// A Bool set by one thread and read by another after a semaphore.
private final class FlagBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    func set(_ value: Bool) {
        lock.lock()
        stored = value
        lock.unlock()
    }
    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
