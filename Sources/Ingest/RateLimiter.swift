import Foundation
import Locking

/// One token bucket per key (an API key, a client address; requests per second), shared by every
/// connection thread. Buckets of keys that went quiet are dropped from time to time, and at most
/// `capacity` are held: while that many keys are active at once, every further key shares one
/// overflow bucket, so memory stays bounded however many keys (addresses) a flood brings.
public final class RateLimiter: Sendable {
    public let rate: Double
    public let burst: Double
    public let capacity: Int
    private let buckets = Locked<State>(State())
    private let clock: @Sendable () -> Double

    private struct State {
        var buckets: [String: TokenBucket] = [:]
        var lastSweep: Double = 0
    }

    /// `rate` requests per second with bursts of `burst`, for at most `capacity` keys at once; a
    /// rate of 0 or less disables limiting.
    public init(rate: Double, burst: Double, capacity: Int = 100_000,
                clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds) {
        self.rate = rate
        self.burst = max(1, burst)
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// The key of the bucket that keys beyond `capacity` share (no API key or address has it).
    static let overflowKey = "\u{0}overflow"

    public var isEnabled: Bool { rate > 0 }

    /// The longest `Retry-After` given, in seconds (a day).
    static let longestRetryAfter: Double = 86_400

    /// Nil when the request may go ahead, else the whole seconds to put in `Retry-After` (at least 1).
    public func admit(key: String) -> Int? {
        guard isEnabled else { return nil }
        let now = clock()
        let (rate, burst, capacity) = (self.rate, self.burst, self.capacity)
        let wait = buckets.withLock { state -> Double? in
            if now - state.lastSweep > 60 {
                state.buckets = state.buckets.filter { !$0.value.isFull(now: now) }
                state.lastSweep = now
            }
            var key = key
            if state.buckets[key] == nil, state.buckets.count >= capacity {
                // Full: forget the idle buckets at once; if still full, the overflow bucket.
                state.buckets = state.buckets.filter { !$0.value.isFull(now: now) }
                state.lastSweep = now
                if state.buckets.count >= capacity { key = Self.overflowKey }
            }
            var bucket = state.buckets[key] ?? TokenBucket(rate: rate, burst: burst, now: now)
            let wait = bucket.take(now: now)
            state.buckets[key] = bucket
            return wait
        }
        guard let wait else { return nil }
        // Clamped before the conversion: a tiny rate gives a wait too large for an Int.
        return wait.isFinite ? max(1, Int(min(wait, Self.longestRetryAfter).rounded(.up))) : Int(Self.longestRetryAfter)
    }

    /// Seconds on a monotonic clock.
    @Sendable public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
