import Foundation

/// The mixture sequential probability ratio test (mSPRT) with a normal mixture, and the confidence
/// sequence it gives: Johari, Koomen, Pekelis & Walsh, "Peeking at A/B tests: why it matters, and
/// what to do about it" (KDD 2017), and "Always valid inference: continuous monitoring of A/B tests"
/// (Operations Research 70(3), 2022).
///
/// For an estimate θ̂ of a difference that is (asymptotically) normal with variance V, the mixture
/// over alternatives θ ~ N(θ0, τ²) of the likelihood ratio against θ = θ0 is
///
///     Λ(θ0) = sqrt(V / (V + τ²)) · exp(τ² (θ̂ − θ0)² / (2 V (V + τ²)))
///
/// a martingale under θ = θ0, so by Ville's inequality the chance that it ever reaches 1/α, at any
/// of however many looks, is at most α. The set of θ0 it has not rejected is the interval
///
///     θ̂ ± sqrt(V (V + τ²) / τ² · (2 log(1/α) + log((V + τ²) / V)))
///
/// and the always-valid confidence sequence is the running intersection of these intervals over the
/// looks (the paper's always-valid p-value is the running minimum of 1/Λ). Unlike a fixed-horizon
/// interval it may be looked at every day and acted on the first time it excludes zero. V here is
/// the plug-in variance of the difference of the two arms' estimates (each clustered by person),
/// which the papers' two-sample form uses as well (their §4 treats the variance as estimated).
///
/// τ: the paper's advice is the size of effect one expects; `RolloutExperiment` sets it to a share
/// (10% by default) of the metric's pooled value, so one choice serves milliseconds and rates.
public struct ConfidenceSequence: Hashable, Sendable {
    public var estimate: Double
    public var lower: Double
    public var upper: Double

    public init(estimate: Double, lower: Double, upper: Double) {
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
    }

    /// The interval of one look: not yet intersected with the earlier ones.
    public static func look(estimate: Double, variance: Double, tau: Double, alpha: Double) -> ConfidenceSequence {
        guard variance > 0, tau > 0, variance.isFinite else {
            return ConfidenceSequence(estimate: estimate, lower: -.infinity, upper: .infinity)
        }
        let t2 = tau * tau
        let half = (variance * (variance + t2) / t2 * (2 * log(1 / alpha) + log((variance + t2) / variance))).squareRoot()
        return ConfidenceSequence(estimate: estimate, lower: estimate - half, upper: estimate + half)
    }

    /// This look's interval intersected with the earlier ones' (`previous`). An empty intersection
    /// (the normal approximation failing on thin early data) keeps this look's interval.
    public func intersected(with previous: ConfidenceSequence?) -> ConfidenceSequence {
        guard let previous else { return self }
        let low = max(lower, previous.lower), high = min(upper, previous.upper)
        guard low <= high else { return self }
        return ConfidenceSequence(estimate: estimate, lower: low, upper: high)
    }

    /// True when the interval lies wholly below zero.
    public var isBelowZero: Bool { upper < 0 }
    /// True when the interval lies wholly above zero.
    public var isAboveZero: Bool { lower > 0 }
}
