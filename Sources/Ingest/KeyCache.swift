import Hashing
import Storage
import Locking

/// API keys looked up recently, so a request costs no query for its key, and unknown keys cost
/// neither memory nor database load.
///
/// - A value that does not have the shape of a menurank key (`mrk_w_` + 32 base62) is unknown
///   at once: no query, nothing remembered.
/// - Only keys that exist are remembered as such (with their grant, revoked or not), for `ttl`;
///   a revocation therefore takes effect within `ttl`. A remembered key whose time is up is looked
///   up again at no cost to the budget below.
/// - An unknown key of the right shape is remembered for `ttl` only as the SHA-256 of the key in a
///   bounded set (`negativeCapacity`): a repeat costs nothing.
/// - Every lookup of a key never seen to exist takes a token from one bucket (`missRate` per
///   second, bursts of `missBurst`), and first one from its client address's bucket (a quarter of
///   those; the address is the forwarded one behind a trusted proxy). With a bucket empty the key
///   is not looked up and the request is told to retry later (503 with `Retry-After`), so a flood
///   of made-up keys costs at most `missRate` queries a second, one address cannot take more than
///   a quarter of them (a new app's first requests from elsewhere still get looked up), and a key
///   already known keeps working throughout.
///
/// Memory: at most `capacity` known keys and `negativeCapacity` hashes (about 100 bytes each).
final class KeyCache: Sendable {
    /// What a key is worth.
    enum Verdict: Sendable {
        case known(KeyGrant)
        case unknown
        /// Too many unknown keys tried lately: retry after this many seconds.
        case throttled(retryAfter: Int)
    }

    /// Lookups made, for metrics and tests.
    struct Statistics: Sendable, Equatable {
        var queries = 0
        var throttled = 0
        var known = 0
        var unknown = 0
    }

    private struct Known {
        var grant: KeyGrant
        var expires: Double
    }

    private struct State {
        var known: [String: Known] = [:]
        var unknown: [SecretDigest: Double] = [:]
        var misses: TokenBucket
        var statistics = Statistics()
    }

    private let lookup: @Sendable (String) throws(StorageError) -> KeyGrant?
    private let ttl: Double
    private let capacity: Int
    private let negativeCapacity: Int
    private let state: Locked<State>
    private let clock: @Sendable () -> Double
    /// Per client address, the share of the lookups it may take.
    private let missesByAddress: RateLimiter

    init(ttl: Duration, capacity: Int = 10_000, negativeCapacity: Int = 10_000, missRate: Double = 20,
         missBurst: Double = 100, clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds,
         lookup: @escaping @Sendable (String) throws(StorageError) -> KeyGrant?) {
        self.lookup = lookup
        let (seconds, attoseconds) = ttl.components
        self.ttl = Double(seconds) + Double(attoseconds) / 1e18
        self.capacity = max(1, capacity)
        self.negativeCapacity = max(1, negativeCapacity)
        self.clock = clock
        missesByAddress = RateLimiter(rate: missRate / 4, burst: max(1, missBurst / 4), capacity: self.negativeCapacity,
                                      clock: clock)
        state = Locked(State(misses: TokenBucket(rate: missRate, burst: max(1, missBurst), now: clock())))
    }

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// Entries remembered now: known keys and unknown hashes.
    var counts: (known: Int, unknown: Int) { state.withLock { ($0.known.count, $0.unknown.count) } }

    /// What `text` (the bearer value as sent) is worth, sent from `address` (the client's, nil when
    /// unknown: then only the global bucket limits its lookup).
    /// - Throws: `StorageError` when the database cannot be asked.
    func verdict(for text: String, from address: String? = nil) throws(StorageError) -> Verdict {
        guard APIKey(parsing: text) != nil else {
            state.withLock { $0.statistics.unknown += 1 }
            return .unknown
        }
        let now = clock()
        let digest = SecretDigest(text)
        enum Step { case answer(Verdict), refresh, firstLookup }
        let step = state.withLock { state -> Step in
            if let entry = state.known[text] {
                if entry.expires > now {
                    state.statistics.known += 1
                    return .answer(.known(entry.grant))
                }
                return .refresh
            }
            if let expires = state.unknown[digest], expires > now {
                state.statistics.unknown += 1
                return .answer(.unknown)
            }
            if let address, let wait = missesByAddress.admit(key: address) {
                state.statistics.throttled += 1
                return .answer(.throttled(retryAfter: min(wait, 3600)))
            }
            if let wait = state.misses.take(now: now) {
                state.statistics.throttled += 1
                return .answer(.throttled(retryAfter: max(1, Int(min(wait, 3600).rounded(.up)))))
            }
            return .firstLookup
        }
        if case .answer(let verdict) = step { return verdict }
        let grant: KeyGrant?
        do {
            grant = try lookup(text)
        } catch {
            state.withLock { $0.statistics.queries += 1 }
            throw error
        }
        let expires = now + ttl
        return state.withLock { state -> Verdict in
            state.statistics.queries += 1
            guard let grant else {
                state.known[text] = nil
                if state.unknown.count >= negativeCapacity {
                    state.unknown = state.unknown.filter { $0.value > now }
                    if state.unknown.count >= negativeCapacity { state.unknown.removeAll(keepingCapacity: true) }
                }
                state.unknown[digest] = expires
                state.statistics.unknown += 1
                return .unknown
            }
            state.unknown[digest] = nil
            if state.known[text] == nil, state.known.count >= capacity {
                state.known = state.known.filter { $0.value.expires > now }
                if state.known.count >= capacity, let victim = state.known.keys.first { state.known[victim] = nil }
            }
            state.known[text] = Known(grant: grant, expires: expires)
            state.statistics.known += 1
            return .known(grant)
        }
    }
}
