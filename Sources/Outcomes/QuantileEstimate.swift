/// A quantile of a latency distribution and its confidence interval, in ms.
///
/// The interval is distribution-free: between the order statistics whose ranks are
/// n q -/+ z sqrt(n q (1 - q)) (the count of observations below the true quantile is binomial),
/// read from the histogram by interpolating inside their buckets.
public struct QuantileEstimate: Hashable, Sendable {
    public var q: Double
    public var estimate: Double
    public var lower: Double
    public var upper: Double
    /// The number of latencies it was estimated from.
    public var count: Int64

    public init(q: Double, estimate: Double, lower: Double, upper: Double, count: Int64) {
        self.q = q
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
        self.count = count
    }

    /// The standard error that the interval implies, (upper - lower) / (2 z): the variance estimate
    /// of Price & Bonett (2002) for a difference of medians.
    public func standardError(confidence: Double = 0.95) -> Double {
        (upper - lower) / (2 * NormalQuantile.criticalValue(confidence: confidence))
    }
}
