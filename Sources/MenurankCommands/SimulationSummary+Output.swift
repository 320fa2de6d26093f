import JSON
import Simulation

/// How `menurank simulate` prints its summary: a JSON document (--format json) or aligned text.
extension SimulationSummary {
    var json: JSONValue {
        .object([
            ("batches", .number(JSONNumber(counts.batches))),
            ("batches_failed", .number(JSONNumber(batchesFailed))),
            ("events_sent", .number(JSONNumber(counts.eventsSent))),
            ("accepted", .number(JSONNumber(counts.accepted))),
            ("duplicates", .number(JSONNumber(counts.duplicates))),
            ("rejected", .number(JSONNumber(counts.rejected))),
            ("rejected_by_code", .object(counts.rejectedByCode.sorted { $0.key < $1.key }
                .map { (key: $0.key, value: .number(JSONNumber($0.value))) })),
            ("http_errors", .object(httpErrorsByStatus.sorted { $0.key < $1.key }
                .map { (key: String($0.key), value: .number(JSONNumber($0.value))) })),
            ("transport_errors", .number(JSONNumber(counts.transportErrors))),
            ("retries", .number(JSONNumber(counts.retries))),
            ("body_bytes", .number(JSONNumber(counts.bodyBytes))),
            ("elapsed_s", .number(JSONNumber(Self.rounded(elapsedSeconds, 3)))),
            ("events_per_s", .number(JSONNumber(Self.rounded(eventsPerSecond, 1)))),
            ("latency_ms", .object([
                ("p50", .number(JSONNumber(Self.rounded(latencyP50, 2)))),
                ("p99", .number(JSONNumber(Self.rounded(latencyP99, 2)))),
                ("max", .number(JSONNumber(Self.rounded(latencyMax, 2)))),
            ])),
        ])
    }

    var text: String {
        var lines: [String] = []
        lines.append("batches        \(counts.batchesAcknowledged)/\(counts.batches) acknowledged")
        lines.append("events sent    \(counts.eventsSent)")
        lines.append("accepted       \(counts.accepted)")
        lines.append("duplicates     \(counts.duplicates)")
        var rejectedLine = "rejected       \(counts.rejected)"
        if !counts.rejectedByCode.isEmpty {
            rejectedLine += " (" + counts.rejectedByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ") + ")"
        }
        lines.append(rejectedLine)
        let errors = httpErrorsByStatus.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }
        lines.append("HTTP errors    " + (errors.isEmpty ? "none" : errors.joined(separator: ", ")))
        lines.append("transport err  \(counts.transportErrors), retries \(counts.retries)")
        lines.append("elapsed        \(Self.fixed(elapsedSeconds, 2)) s")
        lines.append("events/s       \(Self.fixed(eventsPerSecond, 0))")
        lines.append("latency        p50 \(Self.fixed(latencyP50, 1)) ms, p99 \(Self.fixed(latencyP99, 1)) ms, max \(Self.fixed(latencyMax, 1)) ms")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        let r = rounded(value, digits)
        guard digits > 0 else { return String(Int64(r)) }
        let whole = Int64(r.rounded(.towardZero))
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let fraction = abs(Int64((abs(r) * Double(scale)).rounded()) % scale)
        let text = String(fraction)
        return (r < 0 && whole == 0 ? "-" : "") + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }
}
