/// A token bucket: holds at most `burst` tokens, refills at `rate` tokens per second; a request takes
/// one token or is refused with the time until one is available. Pure (the caller passes the time),
/// so it is tested without sleeping.
public struct TokenBucket: Sendable, Equatable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var updatedAt: Double

    /// A full bucket at time `now` (seconds, any monotonic origin).
    public init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        updatedAt = now
    }

    /// Takes `cost` tokens when there are enough and returns nil; otherwise takes nothing and returns
    /// the seconds to wait until there would be enough.
    public mutating func take(_ cost: Double = 1, now: Double) -> Double? {
        if now > updatedAt {
            tokens = min(burst, tokens + (now - updatedAt) * rate)
            updatedAt = now
        }
        if tokens >= cost {
            tokens -= cost
            return nil
        }
        guard rate > 0 else { return .infinity }
        return (cost - tokens) / rate
    }

    /// True when the bucket has been idle long enough to be full again (it can be forgotten).
    public func isFull(now: Double) -> Bool {
        tokens + (now - updatedAt) * rate >= burst
    }
}
