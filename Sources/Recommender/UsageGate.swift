import Foundation
import Ranking

/// The stability test: whether the evidence says one command (or group, or category) is used more
/// than another (DESIGN.md, invariant 6).
///
/// **People are the unit of evidence.** When both sides carry their use split by person bucket
/// (`PeopleCounts`: every person falls into one of 64 buckets by a hash of their id, so buckets
/// are independent random groups of people), b beats a when the difference of their totals,
/// D = sum over buckets of d_k = b_k - a_k, is above z times its standard error estimated from
/// the spread between buckets (a cluster variance, the people-level analogue of the "delta
/// method" that Deng, Lu & Litz, "Trustworthy analysis of online A/B tests", WSDM 2017, recommend
/// for metrics whose unit is not the unit of randomization):
///
///     SE(D)^2 = K / (K - 1) * sum_k (d_k - D / K)^2,   K = 64 buckets.
///
/// What one person does on many days lands in one bucket, so a heavy user's habit weighs as one
/// observation, not as hundreds: with one person behind a command the test never passes, and with
/// n people contributing alike it passes from about n = 4 on (z = 1.96), as the old test did for
/// counts where every pick was another person.
///
/// In a resample of people (`multiplicity`: how many times each bucket is drawn), bucket k counts
/// `multiplicity[k]` times, both in D and as clusters of the variance.
///
/// Without a split on either side (rows rolled up before buckets existed), the counts are taken as
/// independent draws: b beats a when the Wilson lower bound of b / (a + b) is above 0.5. At 95%:
/// 101 vs 99 does not, 1800 vs 1250 does, 12 vs 2 does, 5 vs 0 does, 3 vs 0 does not.
///
/// Either way the relation is antisymmetric and implies b > a.
public struct UsageGate: Sendable {
    /// What the gate compares of one side: its count (under the ordering weight) and that count's
    /// split by person bucket (empty when unknown).
    public struct Evidence: Sendable {
        public var count: Double
        public var people: [Double]

        public init(count: Double, people: [Double] = []) {
            self.count = count
            self.people = people
        }

        public static let zero = Evidence(count: 0, people: [])

        /// The evidence `k` times over (a use compared with the use of `k` places).
        public func times(_ k: Double) -> Evidence {
            Evidence(count: count * k, people: people.map { $0 * k })
        }

        /// The sum of two sides (a category, a group): unknown split when either is unknown,
        /// except that a side with no use adds nothing.
        public static func + (lhs: Evidence, rhs: Evidence) -> Evidence {
            if rhs.count == 0, rhs.people.isEmpty { return lhs }
            if lhs.count == 0, lhs.people.isEmpty { return rhs }
            guard lhs.people.count == rhs.people.count, !lhs.people.isEmpty else {
                return Evidence(count: lhs.count + rhs.count, people: [])
            }
            var people = lhs.people
            for index in people.indices { people[index] += rhs.people[index] }
            return Evidence(count: lhs.count + rhs.count, people: people)
        }
    }

    /// The two-sided critical value of the confidence level.
    public var z: Double
    /// How many times each person bucket is drawn in a resample of people; nil: once each (the
    /// data as observed).
    public var multiplicity: [Double]?

    public init(confidence: Double = 0.95, multiplicity: [Double]? = nil) {
        z = NormalDistribution.criticalValue(confidence: confidence)
        self.multiplicity = multiplicity
    }

    /// The same test with its critical value raised by `extra` (none when `extra` is not
    /// positive): for a change that resamples of people must repeat.
    public func raised(by extra: Double) -> UsageGate {
        var stricter = self
        if extra > 0 { stricter.z += extra }
        return stricter
    }

    /// The test on counts taken as independent draws.
    public func beats(_ b: Double, _ a: Double) -> Bool {
        guard b > a else { return false }
        return WilsonInterval(successes: b, trials: a + b, z: z).lower > 0.5
    }

    /// The test on people when both sides carry a split, else on counts.
    public func beats(_ b: Evidence, _ a: Evidence) -> Bool {
        beats(b, times: 1, a, times: 1)
    }

    /// `beats(b.times(kb), a.times(ka))` without making either (the ladder compares use per
    /// place this way, many times per menu): each side's figures are scaled as `times` scales
    /// them, one multiplication each, so the outcome is the same to the bit. `kb` and `ka` are
    /// positive.
    public func beats(_ b: Evidence, times kb: Double, _ a: Evidence, times ka: Double) -> Bool {
        guard b.count * kb > a.count * ka else { return false }
        let buckets = PersonBucket.count
        // A side without use has the zero split whatever it carries.
        let known = { (side: Evidence, k: Double) in side.people.count == buckets || side.count * k == 0 }
        guard known(b, kb), known(a, ka), b.people.count == buckets || a.people.count == buckets else {
            return beats(b.count * kb, a.count * ka)
        }
        var clusters = 0.0
        var sum = 0.0
        var squares = 0.0
        for k in 0..<buckets {
            let m = multiplicity?[k] ?? 1
            guard m > 0 else { continue }
            let d = (b.people.isEmpty ? 0 : b.people[k] * kb) - (a.people.isEmpty ? 0 : a.people[k] * ka)
            clusters += m
            sum += m * d
            squares += m * d * d
        }
        guard clusters > 1, sum > 0 else { return false }
        let mean = sum / clusters
        let variance = clusters / (clusters - 1) * max(0, squares - clusters * mean * mean)
        return sum > z * variance.squareRoot()
    }

    /// A stable sort gated by `beats`: starting from the given order, each element moves up past
    /// the elements directly above it that it beats, and stops at the first it does not beat
    /// (insertion sort). Hence an element only ever passes elements it beats, no element beats the
    /// one directly above it in the result, and sorting the result again changes nothing.
    public func sorted<T>(_ elements: [T], by evidence: (T) -> Evidence) -> [T] {
        var out: [T] = []
        var kept: [Evidence] = []
        out.reserveCapacity(elements.count)
        kept.reserveCapacity(elements.count)
        for element in elements {
            let e = evidence(element)
            var index = out.count
            while index > 0, beats(e, kept[index - 1]) { index -= 1 }
            out.insert(element, at: index)
            kept.insert(e, at: index)
        }
        return out
    }

    /// `sorted(_:by:)` on counts alone (no split).
    public func sorted<T>(_ elements: [T], byCount count: (T) -> Double) -> [T] {
        sorted(elements) { Evidence(count: count($0)) }
    }
}
