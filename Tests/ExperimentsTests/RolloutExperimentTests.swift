import CivilTime
import Experiments
import Foundation
import Testing

/// The comparison of a rollout's arms on seeded simulations looked at every day for 28 days: the
/// property an always-valid method buys (A/A runs rarely ever show a difference however often they
/// are looked at), the power to see a 15% faster layout, and the sample-ratio check.
@Suite struct RolloutExperimentTests {
    @Test func twoHundredAAExperimentsLookedAtDailyRarelyEverShowADifference() {
        var everDecided = 0, everMismatched = 0, finalNoDifference = 0, looked = 0, naive = 0
        for seed in 1...200 {
            let simulation = SimulatedRollout(seed: UInt64(seed))
            let looks = RolloutExperiment(share: simulation.share).looks(simulation.observations())
            looked += looks.count
            // The fixed-horizon 95% interval of the same estimates, peeked at daily (from the look at
            // which the sequence starts): what the always-valid method guards against.
            if looks.contains(where: { look in
                guard let median = look.metrics[.medianLatency], median.difference != nil else { return false }
                return abs(median.new - median.old) > 1.96 * median.variance.squareRoot()
            }) { naive += 1 }
            if looks.contains(where: { $0.verdict == .better || $0.verdict == .worse }) { everDecided += 1 }
            if looks.contains(where: { $0.verdict == .sampleRatioMismatch }) { everMismatched += 1 }
            if looks.last?.verdict == .noDifferenceYet { finalNoDifference += 1 }
        }
        // Every simulated day was a look, and at most 5% of the runs ever showed better or worse.
        #expect(looked == 200 * 28)
        #expect(everDecided <= 10, "\(everDecided) of 200 A/A runs showed better or worse at some daily look")
        #expect(everMismatched <= 2, "\(everMismatched) of 200 A/A runs flagged a sample ratio mismatch")
        #expect(finalNoDifference >= 185, "\(finalNoDifference) of 200 A/A runs end with no difference yet")
        // Peeking daily at a fixed-horizon 95% interval of the same estimates breaks its 5% (17 of the
        // 200 runs here, 0 for the always-valid sequence).
        #expect(naive > 10 && naive > everDecided, "naive daily peeking: \(naive) of 200")
        print("A/A, 200 runs x 28 daily looks: \(everDecided) ever better or worse (always-valid), \(naive) with a "
            + "fixed-horizon 95% interval peeked at daily, \(everMismatched) sample ratio mismatches")
    }

    @Test(arguments: [11, 12, 13, 14, 15] as [UInt64])
    func aLayoutFifteenPercentFasterIsBetter(seed: UInt64) throws {
        let simulation = SimulatedRollout(people: 1000, share: 0.2, newLatencyFactor: 0.85, seed: seed)
        let looks = RolloutExperiment(share: 0.2).looks(simulation.observations())
        let last = try #require(looks.last)
        #expect(last.verdict == .better, "\(last.reason)")
        let median = try #require(last.metrics[.medianLatency])
        #expect(median.new < median.old)
        let interval = try #require(median.difference)
        // The interval covers the true difference (15% of a median near 900 ms) and excludes zero.
        #expect(interval.upper < 0 && interval.lower < -0.15 * median.old * 0.8, "\(interval)")
        // Once better, never worse afterwards.
        let first = try #require(looks.firstIndex { $0.verdict == .better })
        #expect(looks[first...].allSatisfy { $0.verdict == .better })
    }

    @Test func aLayoutThatIsSlowerOrDismissedMoreIsWorse() throws {
        let slower = SimulatedRollout(people: 1000, share: 0.2, newLatencyFactor: 1.2, seed: 21)
        #expect(RolloutExperiment(share: 0.2).looks(slower.observations()).last?.verdict == .worse)
        let dismissed = SimulatedRollout(people: 1000, share: 0.5, newDismissal: 0.15, seed: 22)
        let last = try #require(RolloutExperiment(share: 0.5).looks(dismissed.observations()).last)
        #expect(last.verdict == .worse && last.guardrailWorse, "\(last.reason)")
    }

    @Test func aClientLoggingOnlyOneArmIsASampleRatioMismatch() throws {
        let simulation = SimulatedRollout(share: 0.2, newLatencyFactor: 0.85, logsOnlyOldArm: true, seed: 31)
        let looks = RolloutExperiment(share: 0.2).looks(simulation.observations())
        let last = try #require(looks.last)
        #expect(last.verdict == .sampleRatioMismatch && last.newPeople == 0, "\(last.reason)")
        #expect(last.sampleRatioPValue < 0.001)
        // Caught within the first days, long before the 28th.
        #expect((looks.firstIndex { $0.verdict == .sampleRatioMismatch } ?? 99) < 7)
    }

    @Test(arguments: [0.1, 0.2, 0.5] as [Double])
    func theDevicesHashGivesTheConfiguredShare(share: Double) throws {
        let simulation = SimulatedRollout(people: 2000, share: share, armsByHash: true, seed: 41)
        let looks = RolloutExperiment(share: share).looks(simulation.observations())
        #expect(looks.allSatisfy { $0.verdict != .sampleRatioMismatch })
        let last = try #require(looks.last)
        let observed = try #require(last.observedShare)
        // Within three standard errors of the configured share.
        #expect(abs(observed - share) < 3 * (share * (1 - share) / Double(last.oldPeople + last.newPeople)).squareRoot())
        #expect(last.mixedPeople == 0)
    }

    @Test func peopleInBothArmsAreLeftOutAndCounted() {
        let tally = PersonTally(opens: 1, positioned: 1, depthSum: 1, latencyBuckets: [200])
        let (first, second) = (CivilDate(dayNumber: 1), CivilDate(dayNumber: 2))
        let looks = RolloutExperiment(share: 0.5).looks([
            .init(day: first, arm: .old, person: 1, tally: tally), .init(day: first, arm: .new, person: 2, tally: tally),
            .init(day: second, arm: .new, person: 1, tally: tally), .init(day: second, arm: .old, person: 3, tally: tally),
        ])
        #expect(looks.map(\.oldPeople) == [1, 1] && looks.map(\.newPeople) == [1, 1] && looks.map(\.mixedPeople) == [0, 1])
        #expect(looks.allSatisfy { $0.verdict == .noDifferenceYet })
    }
}
