import Foundation
import Synchronization
import Locking

/// Total-time deadlines for every connection, enforced from one thread.
///
/// libmicrohttpd's own `MHD_OPTION_CONNECTION_TIMEOUT` is an idle timer that every received byte
/// restarts, so a client sending one byte every few seconds ("slowloris") would hold its
/// connection, and its thread, for ever. Here each connection instead has one deadline for the
/// phase it is in, set when the phase begins and never moved by traffic:
///
/// | phase | begins | deadline |
/// |---|---|---|
/// | waiting for a request head | the connection opens, or its previous response was sent | `headerTimeout` |
/// | receiving the body | the head is complete (first access-handler call) | `bodyTimeout`, and from `minBodyRateGrace` on at least `minBodyRate` bytes a second on average |
/// | handling | the body is complete | none (the handler's own work) |
/// | sending the response | the response is queued | `bodyTimeout` |
///
/// The minimum rate is what keeps a slow body from holding a connection for the whole
/// `bodyTimeout`: one byte every two seconds under a made-up key (which is refused from the head,
/// but its body of up to `drainLimit` bytes is read so that the client gets the answer) would
/// otherwise hold its connection, and the connection slot of its address, for a minute.
///
/// A connection past its deadline has its socket shut down (`shutdown(SHUT_RDWR)`, not closed:
/// the descriptor stays libmicrohttpd's), so libmicrohttpd sees the end of the stream and closes
/// and frees the connection itself. The descriptor cannot be reused meanwhile: libmicrohttpd
/// reports a connection closed (``unregister(_:)``, under the same lock as the shutdown) before it
/// closes the socket.
final class ConnectionWatchdog: Sendable {
    /// One connection's socket and current deadline. Guarded by the watchdog's lock.
    final class Entry: @unchecked Sendable {
        let descriptor: Int32
        var deadline: Double
        var shutDown = false
        /// When the body phase began (nil outside it): the minimum body rate applies from then.
        var bodyStart: Double?
        /// Body bytes received in the body phase (by the connection's thread, without the lock).
        let received = Atomic<Int>(0)
        /// The peer's address, and the address whose connection count this connection holds (nil
        /// for a trusted proxy's connection, which counts its requests instead).
        var peer = ""
        var counted: String?

        init(descriptor: Int32, deadline: Double) {
            self.descriptor = descriptor
            self.deadline = deadline
        }
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var running = false
        var stopped = false
    }

    let headerTimeout: Double
    let bodyTimeout: Double
    /// Bytes a second a body must average from `minBodyRateGrace` after its head on (0: no minimum).
    let minBodyRate: Double
    let minBodyRateGrace: Double
    private let tick: Double
    private let state = Locked<State>(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Connections shut down for passing a deadline, since the start.
    let expired = Atomic<Int>(0)
    /// Of those, the ones whose body came in slower than the minimum rate.
    let tooSlow = Atomic<Int>(0)

    init(headerTimeout: Duration, bodyTimeout: Duration, minBodyRate: Int = 0, minBodyRateGrace: Duration = .seconds(5)) {
        self.headerTimeout = Self.seconds(headerTimeout)
        self.bodyTimeout = Self.seconds(bodyTimeout)
        self.minBodyRate = Double(max(0, minBodyRate))
        self.minBodyRateGrace = Self.seconds(minBodyRateGrace)
        // Deadlines are enforced to within a quarter of the shorter one (at least 50 ms, at most 1 s).
        tick = min(1, max(0.05, min(self.headerTimeout, self.bodyTimeout, self.minBodyRateGrace) / 4))
    }

    /// Starts the checking thread.
    func start() {
        let begin = state.withLock { state -> Bool in
            guard !state.running, !state.stopped else { return false }
            state.running = true
            return true
        }
        guard begin else { return }
        let thread = Thread { [self] in
            while wakeUp.wait(timeout: .now() + tick) == .timedOut {
                expire(now: Self.now())
            }
            finished.signal()
        }
        thread.name = "menurank-http-deadlines"
        thread.start()
    }

    /// Stops the checking thread and waits for it.
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            let running = state.running
            state.running = false
            state.stopped = true
            return running
        }
        guard wasRunning else { return }
        wakeUp.signal()
        finished.wait()
    }

    /// A connection opened: it has `headerTimeout` to deliver its first request head.
    func register(descriptor: Int32) -> Entry {
        let entry = Entry(descriptor: descriptor, deadline: Self.now() + headerTimeout)
        state.withLock { $0.entries[ObjectIdentifier(entry)] = entry }
        return entry
    }

    /// The connection closed; after this its descriptor is never touched again.
    func unregister(_ entry: Entry) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(entry)) }
    }

    /// The head arrived: the body (if any) must arrive within `bodyTimeout`, and at the minimum rate.
    func receivingBody(_ entry: Entry) {
        let now = Self.now()
        entry.received.store(0, ordering: .relaxed)
        set(entry, deadline: now + bodyTimeout, bodyStart: now)
    }

    /// `bytes` more of the body arrived.
    func received(_ entry: Entry, bytes: Int) { entry.received.add(bytes, ordering: .relaxed) }

    /// The body is complete: the handler runs without a deadline.
    func handling(_ entry: Entry) { set(entry, deadline: .infinity) }

    /// A response is queued: the client must take it within `bodyTimeout`.
    func sending(_ entry: Entry) { set(entry, deadline: Self.now() + bodyTimeout) }

    /// The response was sent: the next request head must arrive within `headerTimeout`.
    func awaitingRequest(_ entry: Entry) { set(entry, deadline: Self.now() + headerTimeout) }

    /// Shuts the connection down at once (over its address's connection limit).
    func refuse(_ entry: Entry) {
        state.withLock { _ in
            guard !entry.shutDown else { return }
            entry.shutDown = true
            _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
        }
    }

    /// Connections open now.
    var count: Int { state.withLock { $0.entries.count } }

    private func set(_ entry: Entry, deadline: Double, bodyStart: Double? = nil) {
        state.withLock { _ in
            entry.deadline = deadline
            entry.bodyStart = bodyStart
        }
    }

    /// Shuts down every connection past its deadline at `now`, or whose body has come in slower
    /// than the minimum rate since `minBodyRateGrace` after its head.
    func expire(now: Double) {
        state.withLock { state in
            for entry in state.entries.values where !entry.shutDown {
                var slow = false
                if minBodyRate > 0, let start = entry.bodyStart, now - start > minBodyRateGrace {
                    slow = Double(entry.received.load(ordering: .relaxed)) < minBodyRate * (now - start)
                }
                guard entry.deadline < now || slow else { continue }
                entry.shutDown = true
                _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
                expired.add(1, ordering: .relaxed)
                if slow { tooSlow.add(1, ordering: .relaxed) }
            }
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
