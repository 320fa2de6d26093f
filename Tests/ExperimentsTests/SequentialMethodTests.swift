@testable import Experiments
import Foundation
import Testing

/// The two sequential tests on their own: the mSPRT interval's ends are exactly where the mixture
/// likelihood ratio reaches 1/α, and the beta-binomial sample-ratio test.
@Suite struct SequentialMethodTests {
    /// Λ(θ0) of Johari et al. for an estimate with variance V and mixing variance τ².
    static func mixtureRatio(estimate: Double, null: Double, variance v: Double, tau: Double) -> Double {
        let t2 = tau * tau
        return (v / (v + t2)).squareRoot() * exp(t2 * (estimate - null) * (estimate - null) / (2 * v * (v + t2)))
    }

    @Test(arguments: [(0.0, 1.0, 0.5), (3.0, 0.04, 0.2), (-120.0, 900.0, 90.0)] as [(Double, Double, Double)])
    func theIntervalsEndsAreWhereTheRatioReachesOneOverAlpha(estimate: Double, variance: Double, tau: Double) {
        let interval = ConfidenceSequence.look(estimate: estimate, variance: variance, tau: tau, alpha: 0.05)
        for end in [interval.lower, interval.upper] {
            let ratio = Self.mixtureRatio(estimate: estimate, null: end, variance: variance, tau: tau)
            #expect(abs(ratio - 20) < 1e-6 * 20, "Λ = \(ratio) at \(end)")
        }
        // Wider than the fixed-horizon 95% interval: the price of looking every day.
        #expect(interval.upper - estimate > 1.96 * variance.squareRoot())
        // Intersection keeps the narrower ends, and an empty one falls back to the newer look.
        let previous = ConfidenceSequence(estimate: 0, lower: interval.lower + 0.1 * (interval.upper - interval.lower),
                                          upper: .infinity)
        #expect(interval.intersected(with: previous).lower == previous.lower)
        let apart = ConfidenceSequence(estimate: 0, lower: interval.upper + 1, upper: interval.upper + 2)
        #expect(interval.intersected(with: apart) == interval)
    }

    @Test func theSampleRatioTestFlagsOnlyAWrongShare() {
        let test = SampleRatioTest(share: 0.2)
        #expect(!test.mismatch(inNew: 200, of: 1000) && test.pValue(inNew: 200, of: 1000) == 1)
        #expect(!test.mismatch(inNew: 215, of: 1000))
        #expect(test.mismatch(inNew: 0, of: 100))
        #expect(test.mismatch(inNew: 300, of: 1000))
        #expect(test.mismatch(inNew: 120, of: 1000))
    }

    @Test func theClusteredVarianceGrowsWithPeopleWhoDiffer() throws {
        // The same 400 latencies and dismissals, spread over 100 people alike, or over 4 people.
        func tallies(_ people: Int) -> [PersonTally] {
            (0..<people).map { person in
                let n = 400 / people
                return PersonTally(opens: n, dismissals: person % 2 == 0 ? n / 4 : 0, positioned: n, depthSum: n * (1 + person % 3),
                                   latencyBuckets: (0..<n).map { UInt16(150 + ($0 + person * 7) % 60) })
            }
        }
        let many = ArmStatistics(tallies: tallies(100)), few = ArmStatistics(tallies: tallies(4))
        let rateMany = try #require(many.ratio({ Double($0.dismissals) }, { Double($0.opens) }))
        let rateFew = try #require(few.ratio({ Double($0.dismissals) }, { Double($0.opens) }))
        #expect(abs(rateMany.estimate - 0.125) < 1e-9 && abs(rateFew.estimate - 0.125) < 1e-9)
        #expect(rateFew.variance > 10 * rateMany.variance)
        let median = try #require(many.quantile(0.5))
        #expect(median.variance > 0 && median.variance.isFinite)
    }
}
