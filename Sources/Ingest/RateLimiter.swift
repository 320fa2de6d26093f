import Foundation
import Locking

/// One token bucket per API key (requests per second), shared by every connection thread.
/// Buckets of keys that went quiet are dropped from time to time, so memory stays bounded by the
/// keys active recently.
public final class RateLimiter: Sendable {
    public let rate: Double
    public let burst: Double
    private let buckets = Locked<State>(State())
    private let clock: @Sendable () -> Double

    private struct State {
        var buckets: [String: TokenBucket] = [:]
        var lastSweep: Double = 0
    }

    /// `rate` requests per second with bursts of `burst`; a rate of 0 or less disables limiting.
    public init(rate: Double, burst: Double, clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds) {
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
    }

    public var isEnabled: Bool { rate > 0 }

    /// The longest `Retry-After` given, in seconds (a day).
    static let longestRetryAfter: Double = 86_400

    /// Nil when the request may go ahead, else the whole seconds to put in `Retry-After` (at least 1).
    public func admit(key: String) -> Int? {
        guard isEnabled else { return nil }
        let now = clock()
        let (rate, burst) = (self.rate, self.burst)
        let wait = buckets.withLock { state -> Double? in
            if now - state.lastSweep > 60 {
                state.buckets = state.buckets.filter { !$0.value.isFull(now: now) }
                state.lastSweep = now
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
