import Dispatch
import Foundation
import Menus
import Ranking
@testable import Recommender
import Testing
import TestSupport

/// What the stability bootstrap relies on without computing it (`Recommender.Bootstrap.votes`):
/// the reorder step only reorders inside the promote step's containers and the groups after its
/// section, so its top-level commands are promote's, and a resample never builds it. Checked here
/// on generated menus and on resamples of their usage (people split by bucket or independent
/// counts), instead of on every resample of every run in debug builds, which built each
/// resample's layouts twice.
@Suite("Stability bootstrap on generated menus")
struct StabilityPropertyTests {
    /// `RECO_CASES=N` for another count of cases (default 400), each with the observed data and
    /// `rounds` resamples.
    static let caseCount = Int(ProcessInfo.processInfo.environment["RECO_CASES"] ?? "") ?? 400
    static let rounds = 6

    @Test func theReorderStepKeepsThePromoteStepsTopLevel() {
        let slots = Slots<(problems: [String], reordered: Int, resampled: Int)>(count: Self.caseCount)
        ParallelCases.forEach(Self.caseCount) { index in
            let generated = GeneratedCase(seed: UInt64(index + 1))
            let recommender = Recommender(options: generated.options)
            let bootstrap = recommender.bootstrap(current: generated.menu, commands: generated.commands,
                                                  usage: generated.usage, menuUsers: generated.menuUsers,
                                                  categories: generated.categories)
            var samples = [(usage: generated.usage, gate: UsageGate(confidence: generated.options.confidence))]
            samples += (0..<Self.rounds).map { bootstrap.resample(round: $0) }
            var problems: [String] = []
            var reorderedSamples = 0
            for (round, sample) in samples.enumerated() {
                let layouts = recommender.stepLayouts(current: generated.menu, commands: generated.commands,
                                                      usage: sample.usage, menuUsers: generated.menuUsers,
                                                      categories: generated.categories, together: [], gate: sample.gate,
                                                      steps: [.reorder])
                guard let reorder = layouts.reorder else {
                    problems.append("seed \(generated.seed), sample \(round): no reorder step")
                    continue
                }
                if reorder != layouts.promote { reorderedSamples += 1 }
                let promoted = Recommender.topLevel(of: layouts.promote)
                let reordered = Recommender.topLevel(of: reorder)
                if promoted != reordered {
                    problems.append("seed \(generated.seed), sample \(round): promote \(promoted), reorder \(reordered)")
                }
            }
            slots.set(index, (problems, reorderedSamples, bootstrap.resample(round: 0).usage == generated.usage ? 0 : 1))
        }
        let problems = slots.values.flatMap(\.problems)
        #expect(problems.isEmpty, "\(problems.count) samples: \(problems.prefix(3))")
        // The check has something to check: samples where the reorder step moves items, and
        // resamples that differ from the data as observed.
        let samples = Self.caseCount * (Self.rounds + 1)
        let reordered = slots.values.map(\.reordered).reduce(0, +)
        let resampled = slots.values.map(\.resampled).reduce(0, +)
        print("StabilityPropertyTests: \(samples) samples, \(reordered) where reorder differs from promote, "
            + "\(resampled) of \(Self.caseCount) cases resampled to other counts")
        #expect(Double(reordered) > Double(samples) * 0.05)
        #expect(Double(resampled) > Double(Self.caseCount) * 0.5)
    }
}
