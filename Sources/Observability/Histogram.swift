import Synchronization

/// A distribution of observed values (request durations) counted in buckets with fixed upper bounds.
/// Observing finds the bucket by binary search and does two atomic adds.
public final class Histogram: Sendable {
    /// Bucket bounds for durations in seconds, as OpenTelemetry suggests for HTTP servers.
    public static let defaultSecondsBuckets: [Double] =
        [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

    /// Upper bounds, ascending, without the implicit `+Inf`.
    public let bounds: [Double]
    /// Per-bucket (not cumulative) counts; the last is for values above every bound.
    private let counts: [Cell]
    private let total = AtomicDouble()

    private final class Cell: Sendable {
        let count = Atomic<Int>(0)
    }

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = (0...bounds.count).map { _ in Cell() }
    }

    public func observe(_ value: Double) {
        var low = 0, high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if value <= bounds[middle] { high = middle } else { low = middle + 1 }
        }
        counts[low].count.wrappingAdd(1, ordering: .relaxed)
        total.add(value)
    }

    /// Observes `duration` in seconds.
    public func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        observe(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Cumulative counts for each bound and `+Inf`, and the sum of observed values.
    public var snapshot: (cumulativeCounts: [Int], sum: Double) {
        var running = 0
        let cumulative = counts.map { cell in
            running += cell.count.load(ordering: .relaxed)
            return running
        }
        return (cumulative, total.value)
    }
}
