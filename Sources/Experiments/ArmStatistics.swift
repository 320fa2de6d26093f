import Foundation
import Outcomes

/// One arm's estimates at one look, each with a variance that treats people as the unit: the
/// people of an arm are its independent draws, and what one person does many times is one draw.
///
/// - Rates and means (dismissal rate, observed scan depth) are ratios of per-person sums,
///   Σx / Σy, whose variance is the delta method's over people,
///   Var ≈ Var_i(x_i − R y_i) / (n ȳ²)
///   (Deng, Knoblich & Lu, "Applying the delta method in metric analytics", KDD 2018): the variance
///   clustered by person, which the event-level binomial variance understates when people differ.
/// - Quantiles of selection latency (median, 75th percentile): the quantile x̂_q of all the arm's
///   latencies, read from the histogram over `LatencyHistogram`'s buckets; its variance from the
///   same paper's method for quantiles of clustered data: the share of latencies below x̂_q is a
///   ratio of per-person counts, so its standard error σ_p comes from the delta method above, and is
///   carried to milliseconds through the arm's own quantile function, L = x̂(q − z σ_p),
///   U = x̂(q + z σ_p), se = (U − L) / (2 z): no density to estimate, and for independent
///   latencies (σ_p² = q (1 − q) / N) it is the order-statistic interval `outcomes` already uses.
///   A difference of medians in milliseconds is what a designer reads ("picking got 120 ms faster"),
///   robust to the long tail that a mean of latencies is not.
struct ArmStatistics {
    let tallies: [PersonTally]

    var people: Int { tallies.count }

    /// Σx / Σy over people with the delta-method variance clustered by person; nil without any y.
    func ratio(_ x: (PersonTally) -> Double, _ y: (PersonTally) -> Double) -> (estimate: Double, variance: Double)? {
        let n = Double(tallies.count)
        var sx = 0.0, sy = 0.0
        for tally in tallies {
            sx += x(tally)
            sy += y(tally)
        }
        guard sy > 0 else { return nil }
        let r = sx / sy
        return (r, Self.ratioVariance(tallies.map { (x($0), y($0)) }, ratio: r, n: n, meanY: sy / n))
    }

    /// Var_i(x_i − r y_i) / (n ȳ²); infinite for fewer than two people.
    static func ratioVariance(_ pairs: [(Double, Double)], ratio r: Double, n: Double, meanY: Double) -> Double {
        guard n >= 2, meanY > 0 else { return .infinity }
        var sum = 0.0, sumSquares = 0.0
        for (x, y) in pairs {
            let d = x - r * y
            sum += d
            sumSquares += d * d
        }
        let variance = (sumSquares - sum * sum / n) / (n - 1)
        return max(variance, 0) / (n * meanY * meanY)
    }

    /// The q-quantile of the arm's latencies (ms) and its variance (see the header); nil without any.
    func quantile(_ q: Double, z: Double = 1.959963984540054) -> (estimate: Double, variance: Double)? {
        var counts = [Double](repeating: 0, count: Self.bounds.count)
        var total = 0.0
        for tally in tallies {
            for bucket in tally.latencyBuckets {
                counts[Int(bucket)] += 1
            }
            total += Double(tally.latencyBuckets.count)
        }
        guard total > 0, let estimate = Self.value(atRank: q * total, counts: counts, total: total) else { return nil }
        // The bucket holding the estimate, and the share of that bucket below it.
        let bucket = LatencyHistogram.bucket(of: Int(estimate.rounded(.down)))
        let range = LatencyHistogram.range(of: bucket)
        let fraction = range.upper > range.lower ? min(max((estimate - range.lower) / (range.upper - range.lower), 0), 1) : 0
        let n = Double(tallies.count)
        var pairs: [(Double, Double)] = []
        pairs.reserveCapacity(tallies.count)
        var below = 0.0
        for tally in tallies {
            var s = 0.0
            for b in tally.latencyBuckets {
                if Int(b) < bucket { s += 1 } else if Int(b) == bucket { s += fraction }
            }
            below += s
            pairs.append((s, Double(tally.latencyBuckets.count)))
        }
        let p = below / total
        let sigma = Self.ratioVariance(pairs, ratio: p, n: n, meanY: total / n).squareRoot()
        guard sigma.isFinite else { return (estimate, .infinity) }
        let low = Self.value(atRank: max(q - z * sigma, 0) * total, counts: counts, total: total) ?? estimate
        let high = Self.value(atRank: min(q + z * sigma, 1) * total, counts: counts, total: total) ?? estimate
        let se = (high - low) / (2 * z)
        return (estimate, se * se)
    }

    static let bounds = LatencyHistogram.lowerBounds

    /// The latency below which `rank` of the counted ones lie, spreading each bucket's latencies
    /// evenly over its width (as `LatencyHistogram.value(atRank:)` reads a histogram).
    static func value(atRank rank: Double, counts: [Double], total: Double) -> Double? {
        guard total > 0 else { return nil }
        let target = min(max(rank, 0), total)
        var below = 0.0
        var last = 0
        for (bucket, count) in counts.enumerated() where count > 0 {
            if below + count >= target {
                let (lower, upper) = LatencyHistogram.range(of: bucket)
                return lower + (upper - lower) * (target - below) / count
            }
            below += count
            last = bucket
        }
        return LatencyHistogram.range(of: last).upper
    }
}
