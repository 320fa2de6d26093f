import CivilTime
import Experiments
import Foundation
import MenurankClient
import Outcomes
import TestSupport

/// Seeded synthetic traffic of a rollout, pure and fast: people arrive over the first half of the
/// period, use the menu on some days, pick with a latency drawn from a per-person level (some people
/// are slower than others: the clustering a per-event analysis would miss) times the arm's speed.
struct SimulatedRollout {
    var people = 400
    var share = 0.3
    var days = 28
    /// The new arm's latency as a multiple of the old one's (0.85: 15% faster).
    var newLatencyFactor = 1.0
    /// The new arm's dismissal probability per open (the old arm's is 0.06).
    var newDismissal = 0.06
    /// A client that sends only the old arm's events.
    var logsOnlyOldArm = false
    /// Arms by the real device rule (`RolloutArm`, SHA-256 of salt and id) instead of the generator.
    var armsByHash = false
    var seed: UInt64 = 1

    static let firstDay = 20_400

    func observations() -> [ExperimentObservation] {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 17)
        func uniform() -> Double { Double(random.next() >> 11) / 9_007_199_254_740_992 }
        func normal() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform()) }
        var out: [ExperimentObservation] = []
        for person in 0..<people {
            let isNew = armsByHash
                ? RolloutArm.showsRollout(salt: "salt-\(seed)", user: "person-\(person)", share: share)
                : uniform() < share
            if isNew && logsOnlyOldArm { continue }
            let level = 0.35 * normal()
            let start = Int(uniform() * Double(days / 2))
            for day in start..<days where uniform() < 0.6 {
                var tally = PersonTally()
                for _ in 0..<(1 + Int(uniform() * 4)) {
                    tally.opens += 1
                    if uniform() < (isNew ? newDismissal : 0.06) {
                        tally.dismissals += 1
                        continue
                    }
                    tally.positioned += 1
                    tally.depthSum += 1 + min(Int(-log(max(uniform(), 1e-12)) * 2), 9)
                    let latency = exp(log(900) + level + 0.5 * normal()) * (isNew ? newLatencyFactor : 1)
                    tally.latencyBuckets.append(UInt16(LatencyHistogram.bucket(of: Int(latency))))
                }
                out.append(ExperimentObservation(day: CivilDate(dayNumber: Self.firstDay + day), arm: isNew ? .new : .old,
                                                 person: Int64(person), tally: tally))
            }
        }
        return out
    }
}
