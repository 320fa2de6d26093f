import Foundation
import Ranking
import Recommender
import Testing

@Suite("Wilson interval, normal quantile, usage gate")
struct StatisticsTests {
    @Test(arguments: [
        (0.975, 1.959963984540054), (0.5, 0.0), (0.841344746068543, 1.0), (0.001, -3.090232306167813),
        (0.999, 3.090232306167813), (1e-10, -6.361340902404056), (0.02, -2.053748910631823),
    ])
    func normalQuantile(p: Double, z: Double) {
        #expect(abs(NormalDistribution.quantile(p) - z) < 1e-9)
    }

    @Test func criticalValueForNinetyFivePercent() {
        #expect(String(format: "%.6f", NormalDistribution.criticalValue(confidence: 0.95)) == "1.959964")
        #expect(abs(NormalDistribution.criticalValue(confidence: 0.99) - 2.5758293035489) < 1e-9)
        #expect(NormalDistribution.quantile(0) == -.infinity)
        #expect(NormalDistribution.quantile(1) == .infinity)
    }

    @Test(arguments: [
        (20, 10140, 0.0012772255925140377, 0.0030447523286384346),
        (0, 10, 0.0, 0.2775327998628892),
        (5, 10, 0.236593090512564, 0.7634069094874361),
        (1, 1, 0.20654931437723745, 1.0),
        (81, 263, 0.2552885198782742, 0.36620957698280004),
        (300, 10140, 0.0264617697773237, 0.03306611827889358),
        (0, 380, 0.0, 0.010007930963206886),
        (0, 400, 0.0, 0.009512294334296508),
    ])
    func wilsonKnownValues(successes: Int, trials: Int, lower: Double, upper: Double) {
        let interval = WilsonInterval(successes: successes, trials: trials)
        #expect(abs(interval.lower - lower) < 1e-12)
        #expect(abs(interval.upper - upper) < 1e-12)
        #expect(interval.estimate == Double(successes) / Double(trials))
    }

    @Test func noTrialsConcludeNothing() {
        let interval = WilsonInterval(successes: 0, trials: 0)
        #expect(interval == WilsonInterval(estimate: 0, lower: 0, upper: 1))
    }

    @Test func wilsonNarrowsWithConfidence() {
        let wide = WilsonInterval(successes: 30, trials: 100, confidence: 0.99)
        let narrow = WilsonInterval(successes: 30, trials: 100, confidence: 0.8)
        #expect(wide.lower < narrow.lower && narrow.upper < wide.upper)
    }

    @Test func gateNeedsEvidence() {
        let gate = UsageGate()
        #expect(!gate.beats(101, 99))
        #expect(!gate.beats(99, 101))
        #expect(gate.beats(1800, 1250))
        #expect(!gate.beats(1250, 1800))
        #expect(gate.beats(1010, 830))
        #expect(gate.beats(5, 0))
        #expect(!gate.beats(3, 0))
        #expect(!gate.beats(7, 7))
    }

    @Test func gatedSortIsStableAndIdempotent() {
        let gate = UsageGate()
        let counts: [(String, Double)] = [("a", 99), ("b", 101), ("c", 1250), ("d", 1800), ("e", 0), ("f", 2)]
        let sorted = gate.sorted(counts, byCount: \.1)
        // 2 against 0 is not evidence enough: f stays below e.
        #expect(sorted.map(\.0) == ["d", "c", "a", "b", "e", "f"])
        #expect(gate.sorted(sorted, byCount: \.1).map(\.0) == sorted.map(\.0))
    }
}
