public import Experiments
public import JSON

extension ExperimentLook {
    /// The look as JSON: `{"day", "people": {"old", "new", "mixed"}, "share": {"configured",
    /// "observed", "p_value"}, "metrics": {name: {"old", "new", "difference", "lower", "upper"}},
    /// "verdict", "reason"}`; an interval's ends are null until both arms have the minimum data.
    public var jsonValue: JSONValue {
        func number(_ value: Double?) -> JSONValue {
            guard let value, value.isFinite else { return .null }
            return .number(JSONNumber(ReportNumber.rounded(value, decimals: 6)))
        }
        var metricMembers: [(key: String, value: JSONValue)] = []
        for metric in ExperimentMetric.allCases {
            guard let comparison = metrics[metric] else { continue }
            metricMembers.append((metric.rawValue, .object([
                ("old", number(comparison.old)),
                ("new", number(comparison.new)),
                ("difference", number(comparison.new - comparison.old)),
                ("lower", number(comparison.difference?.lower)),
                ("upper", number(comparison.difference?.upper)),
            ])))
        }
        return .object([
            ("day", .string(ReportDate.day(day))),
            ("people", .object([("old", .number(JSONNumber(oldPeople))), ("new", .number(JSONNumber(newPeople))),
                                ("mixed", .number(JSONNumber(mixedPeople)))])),
            ("share", .object([("configured", number(expectedShare)), ("observed", number(observedShare)),
                               ("p_value", number(sampleRatioPValue))])),
            ("metrics", .object(metricMembers)),
            ("verdict", .string(verdict.rawValue)),
            ("reason", .string(reason)),
        ])
    }
}

/// A rollout's latest look as an aligned table for a terminal: each metric's arms, difference and
/// always-valid interval, then the people per arm and the verdict.
public enum ExperimentLookText {
    public static func render(_ look: ExperimentLook, alpha: Double = 0.05) -> String {
        func value(_ metric: ExperimentMetric, _ x: Double) -> String {
            switch metric {
            case .medianLatency, .p75Latency: return String(Int(x.rounded())) + " ms"
            case .dismissalRate: return ReportNumber.percent(x)
            case .scanDepth: return String(format: "%.2f", x)
            }
        }
        func signed(_ metric: ExperimentMetric, _ x: Double) -> String {
            guard x.isFinite else { return x < 0 ? "-inf" : "+inf" }
            switch metric {
            case .medianLatency, .p75Latency: return String(format: "%+.0f ms", x)
            case .dismissalRate: return String(format: "%+.2f pt", x * 100)
            case .scanDepth: return String(format: "%+.2f", x)
            }
        }
        let names: [ExperimentMetric: String] = [.medianLatency: "median latency", .p75Latency: "p75 latency",
                                                 .dismissalRate: "dismissal rate", .scanDepth: "scan depth"]
        var rows = [["metric", "current", "rollout", "rollout - current", "\(Int(((1 - alpha) * 100).rounded()))% always-valid interval"]]
        for metric in ExperimentMetric.allCases {
            guard let comparison = look.metrics[metric] else { continue }
            rows.append([names[metric] ?? metric.rawValue, value(metric, comparison.old), value(metric, comparison.new),
                         signed(metric, comparison.new - comparison.old),
                         comparison.difference.map { "\(signed(metric, $0.lower)) to \(signed(metric, $0.upper))" } ?? "-"])
        }
        var table = TextTable([.left, .right, .right, .right, .left])
        table.indent = ""
        for row in rows { table.add(row.map { StyledText($0) }) }
        var out = table.lines(colour: false).joined(separator: "\n") + "\n"
        out += "people: \(look.oldPeople) current, \(look.newPeople) rollout"
            + (look.mixedPeople > 0 ? ", \(look.mixedPeople) in both (left out)" : "")
            + "; rollout arm's share " + (look.observedShare.map { ReportNumber.percent($0) } ?? "-") + " of "
            + ReportNumber.percent(look.expectedShare) + " configured"
            + String(format: " (sample-ratio p = %.2g)", look.sampleRatioPValue) + "\n"
        out += "verdict on \(ReportDate.day(look.day)): \(look.verdict.rawValue): \(look.reason)\n"
        return out
    }
}
