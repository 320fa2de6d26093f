import Locking
import Storage

/// Bounds the database lookups that made-up admin tokens cause, as `KeyCache` does for app keys
/// (issue 32: 3,706 made-up tokens a second caused 3,740 transactions a second).
///
/// - A token never seen to exist takes one lookup from a bucket (`missRate` per second, bursts of
///   `missBurst`, the daemon's `unknownKeyLookupRate`/`Burst`), and first one from its client
///   address's bucket (a quarter of those, as `KeyCache` shares out app keys' lookups; the address
///   is the forwarded one behind a trusted proxy); with a bucket empty it is not looked up and the
///   request is answered 503 `token_lookups_throttled` with `Retry-After`. So one address guessing
///   tokens takes at most a quarter of the lookups, and an admin elsewhere whose token this daemon
///   has not seen yet (a new token, a restarted daemon) is still looked up.
/// - A token found unknown is remembered (only as a digest, in a bounded set) for `ttl`: its
///   repeats cost nothing.
/// - A token seen to exist is remembered (as a digest) and skips the bucket, so a reviewer keeps
///   working through a flood. Its grant is never cached: every request of a real token is looked
///   up, so a revocation takes effect at once.
///
/// Memory: at most `capacity` digests of each kind and `capacity` address buckets (addresses
/// beyond those share one bucket).
final class AdminTokenGate: Sendable {
    enum Verdict: Sendable {
        case found(TokenGrant)
        case unknown
        case throttled(retryAfter: Int)
    }

    struct Statistics: Sendable, Equatable {
        var queries = 0
        var throttled = 0
    }

    private struct State {
        var existing: Set<SecretDigest> = []
        var unknown: [SecretDigest: Double] = [:]
        var misses: TokenBucket
        var statistics = Statistics()
    }

    private let lookup: @Sendable (String) throws(StorageError) -> TokenGrant?
    private let ttl: Double
    private let capacity: Int
    private let state: Locked<State>
    private let clock: @Sendable () -> Double
    /// Per client address, the share of the lookups it may take.
    private let missesByAddress: RateLimiter

    init(ttl: Duration, capacity: Int = 10_000, missRate: Double = 20, missBurst: Double = 100,
         clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds,
         lookup: @escaping @Sendable (String) throws(StorageError) -> TokenGrant?) {
        self.lookup = lookup
        let (seconds, attoseconds) = ttl.components
        self.ttl = Double(seconds) + Double(attoseconds) / 1e18
        self.capacity = max(1, capacity)
        self.clock = clock
        missesByAddress = RateLimiter(rate: missRate / 4, burst: max(1, missBurst / 4), capacity: self.capacity, clock: clock)
        state = Locked(State(misses: TokenBucket(rate: missRate, burst: max(1, missBurst), now: clock())))
    }

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// What the token `text` (well formed: `AdminToken(parsing:)` holds) is worth now, sent from
    /// `address` (the client's; nil when unknown: then only the daemon-wide bucket limits it).
    /// - Throws: `StorageError` when the database cannot be asked.
    func verdict(for text: String, from address: String? = nil) throws(StorageError) -> Verdict {
        let now = clock()
        let digest = SecretDigest(text)
        let step: Verdict? = state.withLock { state in
            if state.existing.contains(digest) { return nil }
            if let expires = state.unknown[digest], expires > now { return .unknown }
            if let address, let wait = missesByAddress.admit(key: address) {
                state.statistics.throttled += 1
                return .throttled(retryAfter: min(wait, 3600))
            }
            if let wait = state.misses.take(now: now) {
                state.statistics.throttled += 1
                return .throttled(retryAfter: max(1, Int(min(wait, 3600).rounded(.up))))
            }
            return nil
        }
        if let step { return step }
        let grant: TokenGrant?
        do {
            grant = try lookup(text)
        } catch {
            state.withLock { $0.statistics.queries += 1 }
            throw error
        }
        return state.withLock { state -> Verdict in
            state.statistics.queries += 1
            if let grant {
                state.unknown[digest] = nil
                if state.existing.count >= capacity { state.existing.removeAll(keepingCapacity: true) }
                state.existing.insert(digest)
                return .found(grant)
            }
            state.existing.remove(digest)
            if state.unknown.count >= capacity {
                state.unknown = state.unknown.filter { $0.value > now }
                if state.unknown.count >= capacity { state.unknown.removeAll(keepingCapacity: true) }
            }
            state.unknown[digest] = now + ttl
            return .unknown
        }
    }
}
