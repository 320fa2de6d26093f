public import CivilTime
import Ranking

/// An accepted layout against its predecessor: the differences (new minus old) in median latency
/// and in dismissal rate, each with a 95% interval, and a verdict on latency.
///
/// - Median latency: Price & Bonett (2002), "Distribution-free confidence intervals for difference
///   and ratio of medians": each median's variance is read off its order-statistic interval,
///   ((U - L) / (2 z))^2, and the difference is normal with the sum of the variances.
/// - Dismissal rate: Newcombe's hybrid score interval (1998, method 10) from the two Wilson
///   intervals, which keeps its coverage for small rates where the Wald interval does not.
public struct OutcomeComparison: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable {
        case faster
        case slower
        case noEvidenceYet = "no evidence yet"
    }

    /// How the two versions were compared, against time trends.
    public enum Method: Hashable, Sendable {
        /// Over the same days, while clients ran both versions (these days).
        case sameDays([CivilDate])
        /// The predecessor over its days before the accept, the new layout over its days after.
        case adjacentWindows(before: [CivilDate], after: [CivilDate])
    }

    public struct Difference: Hashable, Sendable {
        public var estimate: Double
        public var lower: Double
        public var upper: Double

        public init(estimate: Double, lower: Double, upper: Double) {
            self.estimate = estimate
            self.lower = lower
            self.upper = upper
        }

        public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
    }

    public var old: OutcomeTally
    public var new: OutcomeTally
    public var method: Method
    /// New median minus old median (ms); nil when either side has no latency.
    public var medianLatency: Difference?
    /// New dismissal rate minus old.
    public var dismissalRate: Difference
    public var verdict: Verdict
    /// Why the verdict is `no evidence yet`, when it is.
    public var reason: String?

    /// The fewest selections with a latency on each side for a verdict.
    public static let defaultMinimumSelections: Int64 = 200

    public init(old: OutcomeTally, new: OutcomeTally, method: Method,
                minimumSelections: Int64 = defaultMinimumSelections, confidence: Double = 0.95)
    {
        self.old = old
        self.new = new
        self.method = method
        medianLatency = Self.medianDifference(old: old.latency, new: new.latency, confidence: confidence)
        dismissalRate = Self.rateDifference(old: old, new: new, confidence: confidence)
        if old.latency.total < minimumSelections || new.latency.total < minimumSelections {
            verdict = .noEvidenceYet
            reason = "too few selections with a latency (\(old.latency.total) before, \(new.latency.total) after; "
                + "at least \(minimumSelections) each)"
        } else if let difference = medianLatency, difference.upper < 0 {
            verdict = .faster
            reason = nil
        } else if let difference = medianLatency, difference.lower > 0 {
            verdict = .slower
            reason = nil
        } else {
            verdict = .noEvidenceYet
            reason = "the interval of the difference in median latency includes zero"
        }
    }

    /// Price & Bonett's interval for new median minus old median.
    public static func medianDifference(old: LatencyHistogram, new: LatencyHistogram, confidence: Double = 0.95)
        -> Difference?
    {
        guard let a = old.quantile(0.5, confidence: confidence), let b = new.quantile(0.5, confidence: confidence)
        else { return nil }
        let z = NormalDistribution.criticalValue(confidence: confidence)
        let se = (a.standardError(confidence: confidence) * a.standardError(confidence: confidence)
            + b.standardError(confidence: confidence) * b.standardError(confidence: confidence)).squareRoot()
        let d = b.estimate - a.estimate
        return Difference(estimate: d, lower: d - z * se, upper: d + z * se)
    }

    /// Newcombe's hybrid score interval for new rate minus old rate.
    public static func rateDifference(old: OutcomeTally, new: OutcomeTally, confidence: Double = 0.95) -> Difference {
        let a = WilsonInterval(successes: Double(old.dismissals), trials: Double(old.opens), confidence: confidence)
        let b = WilsonInterval(successes: Double(new.dismissals), trials: Double(new.opens), confidence: confidence)
        let d = b.estimate - a.estimate
        let below = ((b.estimate - b.lower) * (b.estimate - b.lower) + (a.upper - a.estimate) * (a.upper - a.estimate))
            .squareRoot()
        let above = ((b.upper - b.estimate) * (b.upper - b.estimate) + (a.estimate - a.lower) * (a.estimate - a.lower))
            .squareRoot()
        return Difference(estimate: d, lower: d - below, upper: d + above)
    }
}
