/// When the day bootstrap of `Recommender.stability` may stop before its last resample: as soon
/// as the resamples drawn so far settle which side of the minimum stability the share is on.
///
/// A sequential test of the share p of resamples that keep the top level against the minimum m:
/// every `every` resamples (a look; the last resample is not one), with k of the n drawn so far
/// the same,
/// - stop, not tentative, when P(Binomial(n, m) >= k) <= alpha: a share of m or less would rarely
///   give that many agreeing resamples;
/// - stop, tentative, when P(Binomial(n, m) <= k) <= alpha: a share of m or more would rarely give
///   that few;
/// - else draw on, up to `rounds`, where the share of all the resamples decides as before.
///
/// alpha is `errorBound` shared out over the looks (Bonferroni), so whatever the share, the
/// probability that the bootstrap stops early on the wrong side of the minimum (not tentative
/// while p < m, or tentative while p >= m) is at most `errorBound`. The share reported is that of
/// the resamples drawn, always on the side of its verdict (a tail of at most alpha < 1/2 lies
/// beyond the mean n * m). With the defaults (200 resamples, a look every 32, 1%), a proposal
/// whose resamples all agree stops after 64 resamples instead of 200, one with half of them
/// agreeing after 32.
///
/// The thresholds are computed once from the binomial probabilities with additions,
/// multiplications and divisions only, so they are the same on every platform.
public struct BootstrapStop: Sendable, Hashable {
    /// The probability bound of a wrong early stop.
    public static let defaultErrorBound = 0.01
    /// Resamples between two looks.
    public static let defaultEvery = 32

    public let minimum: Double
    public let rounds: Int
    public let every: Int
    public let errorBound: Double
    /// By look (n = every, 2 every, ...): the least count of agreeing resamples that stops as
    /// not tentative (n + 1: never) and the greatest that stops as tentative (-1: never).
    private let stableFrom: [Int]
    private let tentativeUpTo: [Int]

    public init(minimum: Double, rounds: Int, every: Int = defaultEvery, errorBound: Double = defaultErrorBound) {
        self.minimum = minimum
        self.rounds = rounds
        self.every = max(1, every)
        self.errorBound = errorBound
        let looks = errorBound > 0 ? Array(stride(from: self.every, to: rounds, by: self.every)) : []
        let alpha = looks.isEmpty ? 0 : errorBound / Double(looks.count)
        var stable: [Int] = []
        var tentative: [Int] = []
        for n in looks {
            if minimum <= 0 {
                // Nothing is tentative.
                stable.append(0)
                tentative.append(-1)
            } else if minimum >= 1 {
                // Tentative unless every resample agrees: one disagreeing settles it.
                stable.append(n + 1)
                tentative.append(n - 1)
            } else {
                let pmf = Self.binomial(n: n, p: minimum)
                // Upper tail: least k with P(X >= k) <= alpha.
                var k = n + 1
                var tail = 0.0
                while k > 0, tail + pmf[k - 1] <= alpha {
                    k -= 1
                    tail += pmf[k]
                }
                stable.append(k)
                // Lower tail: greatest k with P(X <= k) <= alpha.
                var j = -1
                var head = 0.0
                while j < n, head + pmf[j + 1] <= alpha {
                    j += 1
                    head += pmf[j]
                }
                tentative.append(j)
            }
        }
        stableFrom = stable
        tentativeUpTo = tentative
    }

    /// Whether to stop after `drawn` resamples of which `same` kept the top level: nil to draw
    /// on, else whether the proposal is stable (not tentative). Only at a look.
    public func verdict(same: Int, drawn: Int) -> Bool? {
        guard drawn % every == 0, drawn < rounds else { return nil }
        let look = drawn / every - 1
        guard look < stableFrom.count else { return nil }
        if same >= stableFrom[look] { return true }
        if same <= tentativeUpTo[look] { return false }
        return nil
    }

    /// P(X = k) for X ~ Binomial(n, p), 0 < p < 1, k = 0...n: weights from the mode outwards by
    /// the ratio of consecutive terms, then normalised (far tails may underflow to 0, which is
    /// what they are worth here).
    static func binomial(n: Int, p: Double) -> [Double] {
        let odds = p / (1 - p)
        let mode = min(n, Int(Double(n + 1) * p))
        var weights = [Double](repeating: 0, count: n + 1)
        weights[mode] = 1
        if mode < n {
            for k in mode..<n { weights[k + 1] = weights[k] * Double(n - k) / Double(k + 1) * odds }
        }
        if mode > 0 {
            for k in stride(from: mode, to: 0, by: -1) { weights[k - 1] = weights[k] * Double(k) / Double(n - k + 1) / odds }
        }
        let sum = weights.reduce(0, +)
        return weights.map { $0 / sum }
    }
}
