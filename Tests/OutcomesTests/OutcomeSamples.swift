import Foundation
import Outcomes
import TestSupport

/// Seeded random numbers for generated outcomes (SplitMix64): the same seed, the same data.
struct SeededRandom {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    mutating func next() -> UInt64 { generator.next() }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    mutating func normal() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
    }

    /// A log-normal latency in ms with the given median and spread of its logarithm.
    mutating func latency(median: Double, sigma: Double) -> Int {
        Int((median * exp(sigma * normal())).rounded())
    }

    mutating func bernoulli(_ p: Double) -> Bool { uniform() < p }
}

/// A version's outcomes drawn from known truth: `opens` menu opens, each dismissed with
/// probability `dismissal`, else a selection with a log-normal latency and a position.
func generatedTally(opens: Int, dismissal: Double, medianLatency: Double, sigma: Double = 0.6,
                    random: inout SeededRandom) -> OutcomeTally
{
    var tally = OutcomeTally()
    for _ in 0..<opens {
        tally.opens += 1
        if random.bernoulli(dismissal) {
            tally.dismissals += 1
        } else {
            tally.latency.add(latency: random.latency(median: medianLatency, sigma: sigma))
            tally.positions[Int(random.next() % 6), default: 0] += 1
        }
    }
    return tally
}
