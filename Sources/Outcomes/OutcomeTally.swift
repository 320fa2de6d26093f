public import Ranking

/// What happened when people opened one element type's menu under one menu version, over some days:
/// counts that add up exactly, so days and versions merge by addition.
public struct OutcomeTally: Hashable, Sendable {
    /// Menu opens: selections plus dismissals.
    public var opens: Int64
    public var dismissals: Int64
    /// Selections by the picked position (0-based, as shown); selections without a position are
    /// counted in `selections` only.
    public var positions: [Int: Int64]
    /// Selection latencies (ms).
    public var latency: LatencyHistogram

    public init(opens: Int64 = 0, dismissals: Int64 = 0, positions: [Int: Int64] = [:],
                latency: LatencyHistogram = LatencyHistogram())
    {
        self.opens = opens
        self.dismissals = dismissals
        self.positions = positions
        self.latency = latency
    }

    public var selections: Int64 { opens - dismissals }

    public mutating func merge(_ other: OutcomeTally) {
        opens += other.opens
        dismissals += other.dismissals
        for (position, count) in other.positions { positions[position, default: 0] += count }
        latency.merge(other.latency)
    }

    /// Dismissals per open with its 95% Wilson interval.
    public var dismissalRate: WilsonInterval {
        WilsonInterval(successes: Double(dismissals), trials: Double(opens))
    }

    /// Mean picked position (0-based) over the selections that reported one; nil without any.
    public var meanPosition: Double? {
        let n = positions.values.reduce(0, +)
        guard n > 0 else { return nil }
        return Double(positions.reduce(Int64(0)) { $0 + Int64($1.key) * $1.value }) / Double(n)
    }

    /// Observed scan depth: the mean of position + 1 over the selections that reported a position,
    /// the measured counterpart of the recommender's expected scan depth.
    public var meanScanDepth: Double? { meanPosition.map { $0 + 1 } }

    public var medianLatency: QuantileEstimate? { latency.quantile(0.5) }
    public var p75Latency: QuantileEstimate? { latency.quantile(0.75) }
}
