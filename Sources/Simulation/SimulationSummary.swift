/// What a simulation run did: the counts the sending threads tallied, with the run's duration and
/// latency percentiles. The counts are read through (`summary.accepted`), not copied field by field.
@dynamicMemberLookup
public struct SimulationSummary: Sendable, Equatable {
    public var counts: SimulationTally
    public var elapsedSeconds = 0.0
    /// Request latencies in milliseconds, one per response.
    public var latencyP50 = 0.0
    public var latencyP99 = 0.0
    public var latencyMax = 0.0

    public subscript<Value>(dynamicMember keyPath: KeyPath<SimulationTally, Value>) -> Value { counts[keyPath: keyPath] }

    public var eventsAcknowledged: Int { counts.accepted + counts.duplicates + counts.rejected }
    public var batchesFailed: Int { counts.batches - counts.batchesAcknowledged }
    public var eventsPerSecond: Double { elapsedSeconds > 0 ? Double(eventsAcknowledged) / elapsedSeconds : 0 }
    public var httpErrorsByStatus: [Int: Int] { counts.responsesByStatus.filter { $0.key != 200 } }

    /// The nearest-rank percentile of sorted values.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
