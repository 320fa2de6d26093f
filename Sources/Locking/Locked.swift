#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, read and changed only under its lock: the one lock type of
/// menurank's server modules (`withLock` as in `Synchronization.Mutex`).
///
/// Why not `Synchronization.Mutex`: on Linux it locks with atomics and futex calls inside the
/// toolchain's own library, which ThreadSanitizer does not instrument, so every access to a
/// Mutex's value is reported as a race (`scripts/tsan`). A POSIX mutex is one ThreadSanitizer
/// follows, so its reports are real ones. The mutex lives at a fixed address (allocated here, as
/// POSIX requires: a `pthread_mutex_t` must not move), default attributes (not recursive: locking
/// it again on the same thread deadlocks, as with `Mutex`).
///
/// `@unchecked Sendable` is sound because `value` is only ever touched between lock and unlock,
/// in `withLock`, and the reference is immutable.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock; what `body` throws is rethrown after the
    /// lock is released. `body` must not call `withLock` on the same lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
