import Foundation

/// The Wilson score interval for a proportion: k successes out of n trials.
///
/// Counts may be fractional (decayed or effective counts, see `Ranker`); the formula is the same.
/// With no trials the interval is the whole of [0, 1] and the estimate is 0, so nothing is ever
/// concluded from no data.
public struct WilsonInterval: Hashable, Sendable {
    /// The observed proportion k / n (0 when n is 0).
    public var estimate: Double
    public var lower: Double
    public var upper: Double

    public init(estimate: Double, lower: Double, upper: Double) {
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
    }

    /// The interval for `successes` of `trials` at a two-sided confidence level (default 95%).
    public init(successes: Double, trials: Double, confidence: Double = 0.95) {
        self.init(successes: successes, trials: trials,
                  z: NormalDistribution.criticalValue(confidence: confidence))
    }

    /// The interval for `successes` of `trials` with an explicit critical value z.
    public init(successes: Double, trials: Double, z: Double) {
        guard trials > 0 else {
            self.init(estimate: 0, lower: 0, upper: 1)
            return
        }
        let k = min(max(successes, 0), trials)
        let p = k / trials
        let z2 = z * z
        let denominator = 1 + z2 / trials
        let centre = (p + z2 / (2 * trials)) / denominator
        let half = z * (p * (1 - p) / trials + z2 / (4 * trials * trials)).squareRoot() / denominator
        self.init(estimate: p, lower: max(0, centre - half), upper: min(1, centre + half))
    }

    public init(successes: Int, trials: Int, confidence: Double = 0.95) {
        self.init(successes: Double(successes), trials: Double(trials), confidence: confidence)
    }
}
