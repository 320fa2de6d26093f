import Menus
@testable import Recommender
import Testing

/// The early stop of the day bootstrap (`BootstrapStop`): where it stops, and that its error bound
/// holds, checked on seeded Bernoulli sequences (deterministic: the same counts on every run).
@Suite("Bootstrap early stop")
struct BootstrapStopTests {
    let stop = BootstrapStop(minimum: 0.9, rounds: 200)

    @Test func binomialProbabilities() {
        let pmf = BootstrapStop.binomial(n: 10, p: 0.5)
        #expect(abs(pmf[5] - 252.0 / 1024) < 1e-15)
        #expect(abs(pmf[0] - 1.0 / 1024) < 1e-15)
        for (n, p) in [(1, 0.3), (64, 0.9), (192, 0.99), (200, 0.01)] {
            let sum = BootstrapStop.binomial(n: n, p: p).reduce(0, +)
            #expect(abs(sum - 1) < 1e-12)
        }
    }

    @Test func looksAndThresholds() {
        // All agreeing: 32 resamples are not enough at 0.9 (0.9^32 = 3.4% > 1%/6), 64 are.
        #expect(stop.verdict(same: 32, drawn: 32) == nil)
        #expect(stop.verdict(same: 64, drawn: 64) == true)
        #expect(stop.verdict(same: 63, drawn: 64) == nil)
        // Half agreeing settles it at the first look.
        #expect(stop.verdict(same: 16, drawn: 32) == false)
        // Only at a look, never at the last resample (the whole run decides there as before).
        #expect(stop.verdict(same: 65, drawn: 65) == nil)
        #expect(BootstrapStop(minimum: 0.9, rounds: 64).verdict(same: 64, drawn: 64) == nil)
        // A verdict is always on the side of the share it reports.
        for look in stride(from: 32, to: 200, by: 32) {
            for same in 0...look {
                guard let stable = stop.verdict(same: same, drawn: look) else { continue }
                #expect(stable == (Double(same) / Double(look) >= 0.9), "\(same) of \(look)")
            }
        }
        // The ends of the range: 0 never makes a proposal tentative, 1 does at the first disagreement.
        #expect(BootstrapStop(minimum: 0, rounds: 200).verdict(same: 0, drawn: 32) == true)
        #expect(BootstrapStop(minimum: 1, rounds: 200).verdict(same: 31, drawn: 32) == false)
        #expect(BootstrapStop(minimum: 1, rounds: 200).verdict(same: 32, drawn: 32) == nil)
        // An error bound of 0: no early stop.
        #expect(BootstrapStop(minimum: 0.9, rounds: 200, errorBound: 0).verdict(same: 192, drawn: 192) == nil)
    }

    /// Whatever the share p of agreeing resamples, a stop on the wrong side of the minimum (not
    /// tentative while p < 0.9, tentative while p >= 0.9) happens in at most 1% of the runs.
    @Test(arguments: [0.5, 0.8, 0.85, 0.88, 0.895, 0.9, 0.905, 0.92, 0.95, 0.99])
    func wrongEarlyStopsStayUnderTheBound(share: Double) {
        var generator = SplitMix64(seed: UInt64(share * 1_000_000))
        let runs = 20_000
        var wrong = 0
        var early = 0
        for _ in 0..<runs {
            var same = 0
            for drawn in 1...200 {
                if generator.unit() < share { same += 1 }
                if let stable = stop.verdict(same: same, drawn: drawn) {
                    early += 1
                    if stable != (share >= 0.9) { wrong += 1 }
                    break
                }
            }
        }
        #expect(Double(wrong) <= Double(runs) * BootstrapStop.defaultErrorBound, "\(wrong) of \(runs) at \(share)")
        // Far from the minimum nearly every run stops early.
        if share <= 0.5 || share >= 0.99 { #expect(Double(early) >= Double(runs) * 0.95, "\(early) early at \(share)") }
    }

    @Test func stableProposalsStopAfterSixtyFourResamples() {
        let recommender = Recommender()
        let days: [[String: UsageCount]] = (0..<28).map { _ in
            MailExample.selections.mapValues { total in
                UsageCount(selections: Double(total) / 28, users: total, userDays: Double(total) / 28)
            }
        }
        let outcome = recommender.bootstrap(current: MailExample.menu, commands: MailExample.commands, days: days,
                                            menuUsers: 800)
        #expect(outcome.same == 64)
        #expect(outcome.drawn == 64)
        #expect(recommender.stability(current: MailExample.menu, commands: MailExample.commands, days: days,
                                      menuUsers: 800) == 1)
    }
}
