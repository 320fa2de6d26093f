import CivilTime
import Foundation
import Outcomes
import Testing

/// The verdict on generated data whose truth is known, and the coverage of the intervals over
/// repeated simulations (seeded, so every run sees the same data).
@Suite struct OutcomeVerdictTests {
    func compare(oldMedian: Double, newMedian: Double, opens: Int = 3000, seed: UInt64,
                 oldDismissal: Double = 0.05, newDismissal: Double = 0.05) -> OutcomeComparison
    {
        var random = SeededRandom(seed: seed)
        let old = generatedTally(opens: opens, dismissal: oldDismissal, medianLatency: oldMedian, random: &random)
        let new = generatedTally(opens: opens, dismissal: newDismissal, medianLatency: newMedian, random: &random)
        return OutcomeComparison(old: old, new: new, method: .sameDays([1, 2, 3].map(CivilDate.init(dayNumber:))))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func aLayoutThatIsFasterIsCalledFaster(seed: UInt64) throws {
        let result = compare(oldMedian: 1400, newMedian: 1150, seed: seed)
        #expect(result.verdict == .faster)
        let difference = try #require(result.medianLatency)
        #expect(difference.upper < 0)
        #expect(difference.contains(-250) || abs(difference.estimate + 250) < 60)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func aLayoutThatIsSlowerIsCalledSlower(seed: UInt64) {
        let result = compare(oldMedian: 1100, newMedian: 1350, seed: seed)
        #expect(result.verdict == .slower)
        #expect(result.medianLatency!.lower > 0)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func equalLayoutsWithNoiseGiveNoEvidenceYet(seed: UInt64) {
        let result = compare(oldMedian: 1200, newMedian: 1200, seed: seed)
        #expect(result.verdict == .noEvidenceYet)
        #expect(result.reason?.contains("includes zero") == true)
    }

    @Test func equalLayoutsRarelyGetAVerdict() {
        // Over many seeds, a verdict on equal layouts is a false alarm: about 5% at a 95% level.
        var alarms = 0
        for seed in UInt64(100)..<UInt64(400) where compare(oldMedian: 900, newMedian: 900, opens: 800, seed: seed)
            .verdict != .noEvidenceYet
        {
            alarms += 1
        }
        #expect(alarms <= 24, "\(alarms) of 300 false verdicts")
    }

    @Test func tooFewOpensGiveNoEvidenceYetWhateverTheDifference() {
        let result = compare(oldMedian: 3000, newMedian: 600, opens: 150, seed: 3)
        #expect(result.verdict == .noEvidenceYet)
        #expect(result.reason?.contains("too few") == true)
    }

    /// Coverage: over 400 simulations each 95% interval holds the true value in about 95% of them.
    @Test func intervalsCoverTheTruthAboutNinetyFivePercentOfTheTime() {
        let runs = 400
        let sigma = 0.6
        let (oldMedian, newMedian) = (1300.0, 1150.0)
        let (oldRate, newRate) = (0.06, 0.09)
        let trueP75 = oldMedian * exp(sigma * 0.674_489_750_196_081_7)
        var medianDiffHits = 0, rateDiffHits = 0, medianHits = 0, p75Hits = 0, wilsonHits = 0
        var random = SeededRandom(seed: 2026)
        for _ in 0..<runs {
            let old = generatedTally(opens: 600, dismissal: oldRate, medianLatency: oldMedian, sigma: sigma,
                                     random: &random)
            let new = generatedTally(opens: 700, dismissal: newRate, medianLatency: newMedian, sigma: sigma,
                                     random: &random)
            let comparison = OutcomeComparison(old: old, new: new, method: .sameDays([CivilDate(dayNumber: 0)]))
            if comparison.medianLatency!.contains(newMedian - oldMedian) { medianDiffHits += 1 }
            if comparison.dismissalRate.contains(newRate - oldRate) { rateDiffHits += 1 }
            let median = old.medianLatency!
            if median.lower <= oldMedian && oldMedian <= median.upper { medianHits += 1 }
            let p75 = old.p75Latency!
            if p75.lower <= trueP75 && trueP75 <= p75.upper { p75Hits += 1 }
            let wilson = old.dismissalRate
            if wilson.lower <= oldRate && oldRate <= wilson.upper { wilsonHits += 1 }
        }
        for (name, hits) in [("median difference", medianDiffHits), ("dismissal rate difference", rateDiffHits),
                             ("median", medianHits), ("p75", p75Hits), ("dismissal rate", wilsonHits)]
        {
            let coverage = Double(hits) / Double(runs)
            // 400 runs at a true 95% coverage: the observed share is 0.95 +/- 0.011 (one standard
            // error); these bounds hold well beyond three.
            #expect(coverage >= 0.91 && coverage <= 0.99, "\(name): coverage \(coverage)")
        }
    }
}
