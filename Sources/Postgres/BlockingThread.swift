public import Foundation

/// Where blocking work runs: libpq blocks its caller (connecting, every query, COPY), so that work
/// never runs on Swift's cooperative thread pool, whose few threads (one per core) would all be
/// stuck waiting for the server while other tasks starve. An async caller hands the work to a
/// thread of its own and suspends until it is done (GRDB's lesson: blocking calls on threads you
/// own, async wrappers that hop there and return `Sendable` results).
public enum BlockingThread {
    /// Runs `body` on a new thread and returns (or throws) what it did, without blocking the
    /// caller's thread. `stackSize` is the thread's stack (deep recursion in JSON or layouts).
    public static func run<T: Sendable>(stackSize: Int = 8 << 20,
                                        _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Swift.Result { try body() }) }
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
