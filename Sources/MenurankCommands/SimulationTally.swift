import JSON

/// The counts of one sending thread, merged into the run's summary when the thread ends (so the
/// threads share nothing while they send).
struct SimulationTally: Sendable, Equatable {
    var batches = 0
    var batchesAcknowledged = 0
    var eventsSent = 0
    var accepted = 0
    var duplicates = 0
    var rejected = 0
    var rejectedByCode: [String: Int] = [:]
    var responsesByStatus: [Int: Int] = [:]
    var transportErrors = 0
    var retries = 0
    var bodyBytes = 0
    var latenciesMillis: [Double] = []

    /// Counts a 200 response body: `{"accepted": n, "duplicates": n, "rejected": [{"code": ...}]}`.
    /// Returns false when the body is not such an object.
    mutating func recordAcknowledgement(_ body: [UInt8]) -> Bool {
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

    mutating func merge(_ other: SimulationTally) {
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

    func summary(elapsedSeconds: Double) -> SimulationSummary {
        let sorted = latenciesMillis.sorted()
        return SimulationSummary(
            counts: self, elapsedSeconds: elapsedSeconds,
            latencyP50: SimulationSummary.percentile(sorted, 50),
            latencyP99: SimulationSummary.percentile(sorted, 99),
            latencyMax: sorted.last ?? 0)
    }
}
