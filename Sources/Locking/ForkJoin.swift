import Foundation

/// Work split into shares that run at once on threads of our own, joined before the call returns:
/// the calling thread does the first share and each other share gets a new thread.
///
/// Threads of our own, because the shares are either blocking work (a read on a second PostgreSQL
/// connection: libpq blocks its thread until the server answers) or long stretches of pure
/// computation; neither belongs on Swift's cooperative pool, whose few threads must never wait.
/// The caller waits for the others, so it must be a thread of its own too (inside
/// `BlockingThread.run`, a `Thread`, `main`), never an async context: both functions are
/// `noasync`, so the compiler refuses a call from one.
///
/// Every share finishes before the call returns or throws, so a share never outlives what it
/// borrowed (a connection is never left in the middle of a query). Errors: the first share's,
/// else the next one's, in share order.
public enum ForkJoin {
    /// Each new thread's stack: deep recursion in JSON or layouts needs more than the default.
    public static let stackSize = 8 << 20

    /// `body` on the calling thread while `other` runs on a new thread; both results once both
    /// are done. `body`'s error comes first, then `other`'s.
    @available(*, noasync, message: "waits for another thread: call it from a thread of your own (BlockingThread.run)")
    public static func both<Mine, Theirs: Sendable>(
        _ body: () throws -> Mine, alongside other: @escaping @Sendable () throws -> Theirs
    ) throws -> (Mine, Theirs) {
        let theirs = Locked<Swift.Result<Theirs, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = Swift.Result { try other() }
            theirs.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        let mine = Swift.Result { try body() }
        done.wait()
        let value = try mine.get()
        return (value, try theirs.withLock { $0! }.get())
    }

    /// `both` for another share that cannot fail: the call throws only what `body` throws, so a
    /// `rethrows` function can run its closure on the calling thread while pure work runs on a
    /// new thread. `other` finishes before this returns or throws.
    @available(*, noasync, message: "waits for another thread: call it from a thread of your own (BlockingThread.run)")
    public static func both<Mine, Theirs: Sendable>(
        _ body: () throws -> Mine, meanwhile other: @escaping @Sendable () -> Theirs
    ) rethrows -> (Mine, Theirs) {
        let theirs = Locked<Theirs?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = other()
            theirs.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        let mine: Mine
        do {
            mine = try body()
        } catch {
            done.wait()
            throw error
        }
        done.wait()
        return (mine, theirs.withLock { $0! })
    }

    /// `(0..<shares).map(share)`, every share at once: share 0 on the calling thread, each other
    /// on a new thread. The results keep the shares' order. With typed throws, a share that
    /// cannot throw makes a call that cannot throw.
    @available(*, noasync, message: "waits for other threads: call it from a thread of your own (BlockingThread.run)")
    public static func map<T: Sendable, Failure: Error>(
        shares: Int, _ share: @escaping @Sendable (Int) throws(Failure) -> T
    ) throws(Failure) -> [T] {
        guard shares > 1 else { return try (0..<max(0, shares)).map { (index) throws(Failure) -> T in try share(index) } }
        let results = Locked([Swift.Result<T, Failure>?](repeating: nil, count: shares))
        let done = DispatchSemaphore(value: 0)
        for index in 1..<shares {
            let thread = Thread {
                let result = Swift.Result { () throws(Failure) -> T in try share(index) }
                results.withLock { $0[index] = result }
                done.signal()
            }
            thread.stackSize = stackSize
            thread.start()
        }
        let first = Swift.Result { () throws(Failure) -> T in try share(0) }
        results.withLock { $0[0] = first }
        for _ in 1..<shares { done.wait() }
        return try results.withLock { $0 }.map { (result) throws(Failure) -> T in try result!.get() }
    }

    /// `(0..<count).map(item)` on `threads` threads (the calling thread one of them), each taking
    /// the next index when done with one: items of uneven cost, or a thread slowed by other work on
    /// the same cores, leave no thread idle while items remain. The results keep the items' order.
    @available(*, noasync, message: "waits for other threads: call it from a thread of your own (BlockingThread.run)")
    public static func map<T: Sendable>(count: Int, threads: Int, _ item: @escaping @Sendable (Int) -> T) -> [T] {
        let next = Locked(0)
        let taken = map(shares: max(1, min(threads, count))) { _ -> [(index: Int, value: T)] in
            var mine: [(index: Int, value: T)] = []
            while true {
                let index = next.withLock { taken -> Int in
                    defer { taken += 1 }
                    return taken
                }
                guard index < count else { return mine }
                mine.append((index, item(index)))
            }
        }
        return taken.joined().sorted { $0.index < $1.index }.map(\.value)
    }
}
