import Ranking

/// The stability test: whether the evidence says one command is used more than another.
///
/// b beats a when the Wilson lower bound of b / (a + b) is above 0.5 at the configured confidence.
/// At 95%: 101 vs 99 does not, 1800 vs 1250 does, 12 vs 2 does, 5 vs 0 does, 3 vs 0 does not.
/// The relation is antisymmetric (both lower bounds above 0.5 is impossible) and implies b > a.
public struct UsageGate: Sendable {
    /// The two-sided critical value of the confidence level.
    public var z: Double

    public init(confidence: Double = 0.95) {
        z = NormalDistribution.criticalValue(confidence: confidence)
    }

    public func beats(_ b: Double, _ a: Double) -> Bool {
        guard b > a else { return false }
        return WilsonInterval(successes: b, trials: a + b, z: z).lower > 0.5
    }

    /// A stable sort gated by `beats`: starting from the given order, each element moves up past
    /// the elements directly above it that it beats, and stops at the first it does not beat
    /// (insertion sort). Hence an element only ever passes elements it beats, no element beats the
    /// one directly above it in the result, and sorting the result again changes nothing.
    public func sorted<T>(_ elements: [T], by count: (T) -> Double) -> [T] {
        var out: [T] = []
        out.reserveCapacity(elements.count)
        for element in elements {
            let c = count(element)
            var index = out.count
            while index > 0, beats(c, count(out[index - 1])) { index -= 1 }
            out.insert(element, at: index)
        }
        return out
    }
}
