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
/// | receiving the body | the head is complete (first access-handler call) | `bodyTimeout` |
/// | handling | the body is complete | none (the handler's own work) |
/// | sending the response | the response is queued | `bodyTimeout` |
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
    private let tick: Double
    private let state = Locked<State>(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Connections shut down for passing a deadline, since the start.
    let expired = Atomic<Int>(0)

    init(headerTimeout: Duration, bodyTimeout: Duration) {
        self.headerTimeout = Self.seconds(headerTimeout)
        self.bodyTimeout = Self.seconds(bodyTimeout)
        // Deadlines are enforced to within a quarter of the shorter one (at least 50 ms, at most 1 s).
        tick = min(1, max(0.05, min(self.headerTimeout, self.bodyTimeout) / 4))
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

    /// The head arrived: the body (if any) must arrive within `bodyTimeout`.
    func receivingBody(_ entry: Entry) { set(entry, deadline: Self.now() + bodyTimeout) }

    /// The body is complete: the handler runs without a deadline.
    func handling(_ entry: Entry) { set(entry, deadline: .infinity) }

    /// A response is queued: the client must take it within `bodyTimeout`.
    func sending(_ entry: Entry) { set(entry, deadline: Self.now() + bodyTimeout) }

    /// The response was sent: the next request head must arrive within `headerTimeout`.
    func awaitingRequest(_ entry: Entry) { set(entry, deadline: Self.now() + headerTimeout) }

    /// Connections open now.
    var count: Int { state.withLock { $0.entries.count } }

    private func set(_ entry: Entry, deadline: Double) {
        state.withLock { _ in entry.deadline = deadline }
    }

    /// Shuts down every connection past its deadline at `now`.
    func expire(now: Double) {
        state.withLock { state in
            for entry in state.entries.values where !entry.shutDown && entry.deadline < now {
                entry.shutDown = true
                _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
                expired.add(1, ordering: .relaxed)
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
