import Foundation

/// Runs blocking work (sockets, waits) on a thread of its own, off Swift's cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// The calling OS thread's id.
func currentThreadID() -> UInt {
    UInt(pthread_self())
}
