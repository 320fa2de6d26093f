import Foundation

/// A sequential sample-ratio check: are the arms' shares of people what the rollout configured?
///
/// People reach a rollout one by one, and each is in the new arm with probability `share` when
/// assignment and logging work, so the count in the new arm is binomial at every look. The test is
/// the Bayes factor of a beta-binomial mixture against that binomial (the mixture approach of
/// Johari et al. 2017 with a conjugate mixture, as Lindon & Malek, "Anytime-valid inference for
/// multinomial count data", NeurIPS 2022, apply it to sample ratio mismatch):
///
///     Λ = B(a + x, b + n − x) / B(a, b) / (share^x (1 − share)^(n − x)),  a = k·share, b = k·(1 − share)
///
/// for x of n people in the new arm. It is a martingale under the configured share, exact (no
/// normal approximation), so daily looks keep the false alarm rate under α; the mismatch is flagged
/// the first time Λ ≥ 1/α, and stays flagged (the always-valid p-value is a running minimum).
public struct SampleRatioTest: Hashable, Sendable {
    public var share: Double
    public var alpha: Double
    /// The mixture's concentration k: a prior worth k people, centred on the share.
    public var concentration: Double

    public init(share: Double, alpha: Double = 0.001, concentration: Double = 100) {
        self.share = share
        self.alpha = alpha
        self.concentration = concentration
    }

    /// log Λ for `inNew` of `people` in the new arm.
    public func logBayesFactor(inNew x: Int, of people: Int) -> Double {
        let n = Double(people), k = Double(x)
        let a = concentration * share, b = concentration * (1 - share)
        let logMixture = logBeta(a + k, b + n - k) - logBeta(a, b)
        let logNull = k * log(share) + (n - k) * log(1 - share)
        return logMixture - logNull
    }

    /// The always-valid p-value of one look, min(1, 1/Λ).
    public func pValue(inNew x: Int, of people: Int) -> Double {
        min(1, exp(-logBayesFactor(inNew: x, of: people)))
    }

    /// True when this look rejects the configured share.
    public func mismatch(inNew x: Int, of people: Int) -> Bool {
        logBayesFactor(inNew: x, of: people) >= log(1 / alpha)
    }

    private func logBeta(_ a: Double, _ b: Double) -> Double { lgamma(a) + lgamma(b) - lgamma(a + b) }
}
