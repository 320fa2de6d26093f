import Locking
import Storage

/// Every origin some app allows (sql/0016), for what has no key to name its app: a CORS preflight
/// (browsers never send credentials with one) and a refusal made before the key is known (401,
/// 503). Read from the database at most once per `ttl` (the key cache's period), by one caller at
/// a time while the others use the copy they have: a flood of preflights costs at most one query
/// per period (before the first read has answered, every caller reads). A failed read keeps the last copy (or, never read, answers nil) and is tried again
/// a second later at the soonest.
final class OriginDirectory: Sendable {
    private struct State {
        var origins: Set<String>?
        var expires: Double = 0
        var refreshing = false
    }

    private let ttl: Double
    private let state = Locked(State())
    private let clock: @Sendable () -> Double
    private let load: @Sendable () throws(StorageError) -> Set<String>

    init(ttl: Duration, clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds,
         load: @escaping @Sendable () throws(StorageError) -> Set<String>) {
        self.ttl = IngestServer.seconds(ttl)
        self.clock = clock
        self.load = load
    }

    /// True when some app allows `origin`, false when none does, nil when the list was never read
    /// (the database did not answer).
    func allows(_ origin: String) -> Bool? {
        let now = clock()
        let (current, mustRefresh) = state.withLock { state -> (Set<String>?, Bool) in
            // Another caller refreshing: use the copy there is; with none yet, read it too.
            guard state.expires <= now, !state.refreshing || state.origins == nil else { return (state.origins, false) }
            state.refreshing = true
            return (state.origins, true)
        }
        guard mustRefresh else { return current?.contains(origin) }
        let loaded = try? load()
        return state.withLock { state -> Bool? in
            state.refreshing = false
            if let loaded {
                state.origins = loaded
                state.expires = now + ttl
            } else {
                state.expires = now + max(ttl, 1)
            }
            return state.origins?.contains(origin)
        }
    }
}
