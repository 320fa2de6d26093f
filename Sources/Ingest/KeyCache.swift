import Storage
import Synchronization

/// API keys looked up recently, so a request costs no query for its key. An entry (known or
/// unknown key) is trusted for `ttl`; a revocation therefore takes effect within `ttl`. The cache
/// is bounded: when full it is emptied.
final class KeyCache: Sendable {
    private let store: AppStore
    private let ttl: Double
    private let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    private struct Entry {
        var grant: KeyGrant?
        var expires: Double
    }

    init(store: AppStore, ttl: Duration, capacity: Int = 10_000) {
        self.store = store
        let (seconds, attoseconds) = ttl.components
        self.ttl = Double(seconds) + Double(attoseconds) / 1e18
        self.capacity = capacity
    }

    /// What `key` grants, nil for an unknown key.
    /// - Throws: `StorageError` when the database cannot be asked.
    func grant(for key: String) throws(StorageError) -> KeyGrant? {
        let now = RateLimiter.monotonicSeconds()
        if let entry = entries.withLock({ $0[key] }), entry.expires > now { return entry.grant }
        let grant = try store.lookup(key: key)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(grant: grant, expires: now + ttl)
        }
        return grant
    }
}
