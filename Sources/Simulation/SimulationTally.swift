import JSON

/// The counts of one sending thread, merged into the run's summary when the thread ends (so the
/// threads share nothing while they send).
public struct SimulationTally: Sendable, Equatable {
    public var batches = 0
    public var batchesAcknowledged = 0
    public var eventsSent = 0
    public var accepted = 0
    public var duplicates = 0
    public var rejected = 0
    public var rejectedByCode: [String: Int] = [:]
    public var responsesByStatus: [Int: Int] = [:]
    public var transportErrors = 0
    public var retries = 0
    public var bodyBytes = 0
    public var latenciesMillis: [Double] = []

    /// Counts a 200 response body: `{"accepted": n, "duplicates": n, "rejected": [{"code": ...}]}`.
    /// Returns false when the body is not such an object.
    public mutating func recordAcknowledgement(_ body: [UInt8]) -> Bool {
        guard let value = try? JSONParser.parse(bytes: body),
              let accepted = value["accepted"]?.intValue
        else { return false }
        self.accepted += accepted
        duplicates += value["duplicates"]?.intValue ?? 0
        for item in value["rejected"]?.arrayValue ?? [] {
            rejected += 1
            rejectedByCode[item["code"]?.stringValue ?? "unknown", default: 0] += 1
        }
        return true
    }

    public mutating func merge(_ other: SimulationTally) {
        batches += other.batches
        batchesAcknowledged += other.batchesAcknowledged
        eventsSent += other.eventsSent
        accepted += other.accepted
        duplicates += other.duplicates
        rejected += other.rejected
        rejectedByCode.merge(other.rejectedByCode, uniquingKeysWith: +)
        responsesByStatus.merge(other.responsesByStatus, uniquingKeysWith: +)
        transportErrors += other.transportErrors
        retries += other.retries
        bodyBytes += other.bodyBytes
        latenciesMillis += other.latenciesMillis
    }

    public func summary(elapsedSeconds: Double) -> SimulationSummary {
        let sorted = latenciesMillis.sorted()
        return SimulationSummary(
            counts: self, elapsedSeconds: elapsedSeconds,
            latencyP50: SimulationSummary.percentile(sorted, 50),
            latencyP99: SimulationSummary.percentile(sorted, 99),
            latencyMax: sorted.last ?? 0)
    }
}
