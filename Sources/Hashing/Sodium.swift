import CSodium

/// libsodium, initialised once (`sodium_init` picks the fastest implementations for this CPU and
/// makes the library thread-safe). Every entry point of this module that calls libsodium reads
/// `Sodium.ready` first; the global is initialised exactly once, thread-safely, by the runtime.
enum Sodium {
    static let ready: Void = {
        // 0: initialised now, 1: already initialised; -1 only when the system has no randomness.
        precondition(sodium_init() >= 0, "libsodium could not be initialised")
    }()
}
