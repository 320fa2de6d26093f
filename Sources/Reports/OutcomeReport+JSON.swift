import CivilTime
public import JSON
public import Outcomes

/// `menurank outcomes --format json`: the report as data. Latencies in ms, rates as fractions,
/// days as `YYYY-MM-DD`; members in a fixed order, so the same report gives the same bytes.
extension OutcomeReport {
    public var jsonValue: JSONValue {
        .object([
            ("app", .string(app)),
            ("window", .object([("from", .string(ReportDate.day(windowFrom))), ("to", .string(ReportDate.day(windowTo)))])),
            ("element_types", .array(elementTypes.map { $0.jsonValue })),
        ])
    }
}

extension ElementOutcomes {
    var jsonValue: JSONValue {
        .object([
            ("element_type", .string(elementType)),
            ("versions", .array(versions.map { $0.jsonValue })),
            ("comparisons", .array(comparisons.map { $0.jsonValue })),
        ])
    }
}

extension VersionOutcome {
    /// `known`, `rollout` (a rollout's arm: `rollout_id`, `proposal_id`), `unknown` or `not_sent`.
    public var statusName: String {
        switch status {
        case .known: return "known"
        case .rollout: return "rollout"
        case .unknown: return "unknown"
        case .notSent: return "not_sent"
        }
    }

    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("menu_version", .string(menuVersion)),
                                                          ("status", .string(statusName))]
        if case let .known(layoutVersion, proposalID) = status {
            members.append(("layout_version", .number(JSONNumber(layoutVersion))))
            members.append(("proposal_id", proposalID.map { .number(JSONNumber(Int($0))) } ?? .null))
        }
        if case let .rollout(rolloutID, proposalID) = status {
            members.append(("rollout_id", .number(JSONNumber(Int(rolloutID)))))
            members.append(("proposal_id", .number(JSONNumber(Int(proposalID)))))
        }
        members.append(("days", .number(JSONNumber(days))))
        members += OutcomeJSON.tally(tally)
        return .object(members)
    }
}

extension LayoutComparison {
    var jsonValue: JSONValue {
        let c = comparison
        var method: [(key: String, value: JSONValue)]
        switch c.method {
        case .sameDays(let days):
            method = [("kind", "same_days"), ("days", .array(days.map { .string(ReportDate.day($0)) }))]
        case .adjacentWindows(let before, let after):
            method = [("kind", "adjacent_windows"),
                      ("before", OutcomeJSON.span(before)), ("after", OutcomeJSON.span(after))]
        }
        var members: [(key: String, value: JSONValue)] = [
            ("proposal_id", proposalID.map { .number(JSONNumber(Int($0))) } ?? .null),
            ("old", .object([("menu_version", .string(oldMenuVersion)),
                             ("layout_version", .number(JSONNumber(oldLayoutVersion)))] + OutcomeJSON.tally(c.old))),
            ("new", .object([("menu_version", .string(newMenuVersion)),
                             ("layout_version", .number(JSONNumber(newLayoutVersion)))] + OutcomeJSON.tally(c.new))),
            ("method", .object(method)),
            ("median_latency_difference_ms", c.medianLatency.map { OutcomeJSON.difference($0, decimals: 1) } ?? .null),
            ("dismissal_rate_difference", OutcomeJSON.difference(c.dismissalRate, decimals: 6)),
            ("verdict", .string(c.verdict.rawValue)),
            ("reason", c.reason.map { .string($0) } ?? .null),
        ]
        if let predicted {
            var p: [(key: String, value: JSONValue)] = [
                ("scan_depth_before", OutcomeJSON.number(predicted.scanDepthBefore, 2)),
                ("scan_depth_after", OutcomeJSON.number(predicted.scanDepthAfter, 2)),
            ]
            p.append(("time_saved_seconds", predicted.timeSavedSeconds.map { OutcomeJSON.number($0, 3) } ?? .null))
            members.append(("predicted", .object(p)))
        } else {
            members.append(("predicted", .null))
        }
        return .object(members)
    }
}

enum OutcomeJSON {
    static func number(_ x: Double, _ decimals: Int) -> JSONValue {
        .number(JSONNumber(ReportNumber.rounded(x, decimals: decimals)))
    }

    static func span(_ days: [CivilDate]) -> JSONValue {
        guard let first = days.first, let last = days.last else { return .null }
        return .object([("from", .string(ReportDate.day(first))), ("to", .string(ReportDate.day(last))),
                        ("days", .number(JSONNumber(days.count)))])
    }

    static func difference(_ d: OutcomeComparison.Difference, decimals: Int) -> JSONValue {
        .object([("estimate", number(d.estimate, decimals)), ("low", number(d.lower, decimals)),
                 ("high", number(d.upper, decimals))])
    }

    static func quantile(_ q: QuantileEstimate?) -> JSONValue {
        guard let q else { return .null }
        return .object([("estimate", number(q.estimate, 1)), ("low", number(q.lower, 1)), ("high", number(q.upper, 1))])
    }

    static func tally(_ t: OutcomeTally) -> [(key: String, value: JSONValue)] {
        let rate = t.dismissalRate
        return [
            ("opens", .number(JSONNumber(Int(t.opens)))),
            ("selections", .number(JSONNumber(Int(t.selections)))),
            ("dismissals", .number(JSONNumber(Int(t.dismissals)))),
            ("dismissal_rate", .object([("estimate", number(rate.estimate, 6)), ("low", number(rate.lower, 6)),
                                        ("high", number(rate.upper, 6))])),
            ("latency_ms", .object([("count", .number(JSONNumber(Int(t.latency.total)))),
                                    ("median", quantile(t.medianLatency)), ("p75", quantile(t.p75Latency))])),
            ("mean_position", t.meanPosition.map { number($0, 3) } ?? .null),
            ("scan_depth", t.meanScanDepth.map { number($0, 3) } ?? .null),
        ]
    }
}

extension PredictedEvidence {
    /// What a proposal's evidence (the element type's entry of `recommend --format json`, as stored
    /// with the proposal) predicted: `scan_depth.current`, `scan_depth.proposed`,
    /// `time_saved_seconds`; nil when it does not say.
    public init?(evidence: String) {
        guard let json = try? JSONParser.parse(evidence),
              case let .number(before)? = json["scan_depth"]?["current"],
              case let .number(after)? = json["scan_depth"]?["proposed"],
              let b = Double(before.text), let a = Double(after.text)
        else { return nil }
        var saved: Double?
        if case let .number(s)? = json["time_saved_seconds"] { saved = Double(s.text) }
        self.init(scanDepthBefore: b, scanDepthAfter: a, timeSavedSeconds: saved)
    }
}
