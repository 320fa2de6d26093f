import Foundation

/// Selection latency as an exact histogram over fixed, log-spaced buckets: the mergeable quantile
/// sketch of the outcome rollups (`daily_outcomes.latency_buckets` / `latency_counts`).
///
/// Buckets: one per millisecond below 64 ms, then 32 per doubling (each about 2.2% wide):
/// bucket i >= 64 starts at floor(64 * 2^((i - 64) / 32)) ms, up to the API's limit of one hour
/// (569 buckets). PostgreSQL assigns a latency to its bucket with `width_bucket(latency_ms,
/// lowerBounds)` over the bounds bound from here, so SQL and Swift share one definition.
///
/// Why this rather than t-digest (`postgresql-15-tdigest`):
/// - merging is exact: a window's histogram is the sum of its days' counts, so rolled-up and
///   recomputed figures agree to the event, in any order of merging (a t-digest's merge depends on
///   the order, and its quantiles carry an error that is hard to state);
/// - no extension to install, build or distribute on Citus (only `hll` is needed, for users);
/// - quantile confidence intervals come from order statistics (the ranks of the interval's ends are
///   binomial), which needs the rank of a value: a histogram gives it, a digest only estimates it;
/// - the price: a quantile is known to within its bucket (2.2%), read by interpolating inside the
///   bucket, far below the sampling error of any real comparison; and a row holds up to 569 counts
///   (in practice a few dozen non-empty buckets, stored sparsely).
public struct LatencyHistogram: Hashable, Sendable {
    /// Bucket index to count; only non-empty buckets are present.
    public private(set) var counts: [Int: Int64]
    /// Number of latencies counted.
    public private(set) var total: Int64

    public init() {
        counts = [:]
        total = 0
    }

    /// A histogram from sparse bucket indexes and their counts (as stored).
    public init(buckets: [Int], counts: [Int64]) {
        self.init()
        for (bucket, count) in zip(buckets, counts) where count > 0 { add(bucket: bucket, count: count) }
    }

    public static let linearBuckets = 64
    public static let bucketsPerDoubling = 32
    public static let maximumLatency = 3_600_000

    /// The lower bound (ms, inclusive) of every bucket, ascending; bucket i covers
    /// [lowerBounds[i], lowerBounds[i + 1]).
    public static let lowerBounds: [Int] = {
        var bounds = Array(0..<linearBuckets)
        var i = linearBuckets
        while true {
            let exponent = Double(i - linearBuckets) / Double(bucketsPerDoubling)
            let bound = Int((Double(linearBuckets) * pow(2, exponent)).rounded(.down))
            if bound > maximumLatency { break }
            bounds.append(bound)
            i += 1
        }
        return bounds
    }()

    /// The bounds that SQL's `width_bucket(latency, thresholds)` takes so that it returns the bucket
    /// index directly: every lower bound but the first (0).
    public static var sqlThresholds: [Int32] { lowerBounds.dropFirst().map { Int32($0) } }

    /// The bucket of a latency in ms (negative ones count as 0).
    /// (From 64 ms on, bucket 64 + 32k starts at exactly 64 * 2^k ms, so the doubling the latency
    /// lies in, read off its highest bit, leaves 32 buckets to search.)
    public static func bucket(of latency: Int) -> Int {
        if latency < linearBuckets { return max(latency, 0) }
        let bounds = lowerBounds
        let doubling = (Int.bitWidth - 1 - latency.leadingZeroBitCount) - (linearBuckets.trailingZeroBitCount)
        var low = min(linearBuckets + doubling * bucketsPerDoubling, bounds.count - 1)
        var high = min(low + bucketsPerDoubling - 1, bounds.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            if bounds[mid] <= latency { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// [lower, upper) of a bucket, in ms.
    public static func range(of bucket: Int) -> (lower: Double, upper: Double) {
        let bounds = lowerBounds
        let lower = Double(bounds[min(max(bucket, 0), bounds.count - 1)])
        let upper = bucket + 1 < bounds.count ? Double(bounds[bucket + 1]) : Double(maximumLatency + 1)
        return (lower, upper)
    }

    public mutating func add(latency: Int, count: Int64 = 1) {
        add(bucket: Self.bucket(of: latency), count: count)
    }

    public mutating func add(bucket: Int, count: Int64) {
        guard count > 0 else { return }
        counts[bucket, default: 0] += count
        total += count
    }

    public mutating func merge(_ other: LatencyHistogram) {
        for (bucket, count) in other.counts { add(bucket: bucket, count: count) }
    }

    /// The non-empty buckets in ascending order with their counts.
    public var sortedBuckets: [(bucket: Int, count: Int64)] {
        counts.sorted { $0.key < $1.key }.map { (bucket: $0.key, count: $0.value) }
    }

    /// The value at fractional rank `rank` (0 ... total): the latency below which `rank` of the
    /// counted latencies lie, spreading each bucket's latencies evenly over its width. Nil when
    /// the histogram is empty.
    public func value(atRank rank: Double) -> Double? {
        guard total > 0 else { return nil }
        let target = min(max(rank, 0), Double(total))
        var below = 0.0
        let buckets = sortedBuckets
        for (bucket, count) in buckets {
            let n = Double(count)
            if below + n >= target {
                let (lower, upper) = Self.range(of: bucket)
                return lower + (upper - lower) * (target - below) / n
            }
            below += n
        }
        return Self.range(of: buckets.last!.bucket).upper
    }

    /// The q-quantile (0 < q < 1) with its distribution-free confidence interval (see
    /// `QuantileEstimate`). Nil when the histogram is empty.
    public func quantile(_ q: Double, confidence: Double = 0.95) -> QuantileEstimate? {
        guard total > 0, let estimate = value(atRank: q * Double(total)) else { return nil }
        let n = Double(total)
        let z = NormalQuantile.criticalValue(confidence: confidence)
        // Order statistics X(l) <= x_q <= X(u) with probability about `confidence`: the number of
        // observations below x_q is Binomial(n, q), so the ranks are n q -/+ z sqrt(n q (1 - q)).
        let spread = z * (n * q * (1 - q)).squareRoot()
        let lowerRank = max(0, (n * q - spread).rounded(.down))
        let upperRank = min(n, (n * q + spread).rounded(.up) + 1)
        return QuantileEstimate(q: q, estimate: estimate, lower: value(atRank: lowerRank) ?? estimate,
                                upper: value(atRank: upperRank) ?? estimate, count: total)
    }
}
