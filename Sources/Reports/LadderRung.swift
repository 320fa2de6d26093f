public import JSON
public import Menus
public import Recommender

/// One step of a proposal's ladder as review output shows it (DESIGN.md, "The proposal is the
/// smallest change that delivers the gain"). Rounded when made, so a document written as JSON and
/// read back is equal to itself.
///
/// JSON: `{"step", "offered", "filed", "groups" (the layout, null when not offered), "moved",
/// "moves", "scan_depth", "seconds", "gain_share", "stability", "why_not"}`.
public struct LadderRung: Hashable, Sendable {
    /// `promote`, `reorder` or `regroup`.
    public var step: String
    public var filed: Bool
    /// The step's layout; nil when not offered.
    public var layout: Layout?
    /// Commands whose group or submenu changes, or that are pruned, in the current reading order.
    public var moved: [String]
    /// Honest expected scan depth of the step's layout (nil when not offered).
    public var scanDepth: Double?
    /// Model seconds per selection of the step's layout (nil when not offered).
    public var seconds: Double?
    /// The step's model-time gain as a share of the best step's (0 when nothing gains).
    public var gainShare: Double?
    /// Share of resamples of people with the same top-level commands (nil: not computed).
    public var stability: Double?
    /// Why the step is not offered or not the one filed; nil for the filed step.
    public var whyNot: String?

    public init(step: String, filed: Bool, layout: Layout?, moved: [String], scanDepth: Double?, seconds: Double?,
                gainShare: Double?, stability: Double?, whyNot: String?)
    {
        self.step = step
        self.filed = filed
        self.layout = layout
        self.moved = moved
        self.scanDepth = scanDepth.map { ReportNumber.rounded($0, decimals: ReportNumber.scanDepthDecimals) }
        self.seconds = seconds.map { ReportNumber.rounded($0, decimals: ReportNumber.secondsDecimals) }
        self.gainShare = gainShare.map { ReportNumber.rounded($0, decimals: ReportNumber.shareDecimals) }
        self.stability = stability.map { ReportNumber.rounded($0, decimals: ReportNumber.shareDecimals) }
        self.whyNot = whyNot
    }

    public var offered: Bool { layout != nil }

    /// The rungs of a recommender run's ladder.
    public static func rungs(of proposal: Proposal) -> [LadderRung] {
        let best = proposal.ladder.map { $0.gain }.max() ?? 0
        return proposal.ladder.map { step in
            LadderRung(step: step.kind.rawValue, filed: step.kind == proposal.step && proposal.changed,
                       layout: step.layout, moved: step.moved, scanDepth: step.evidence?.proposedScanDepth,
                       seconds: step.evidence?.proposedSeconds,
                       gainShare: step.offered ? (best > 0 ? max(0, step.gain) / best : 0) : nil,
                       stability: step.stability, whyNot: step.whyNot)
        }
    }

    public var jsonValue: JSONValue {
        [
            "step": .string(step),
            "offered": .bool(offered),
            "filed": .bool(filed),
            "groups": layout?.jsonValue ?? .null,
            "moved": .array(moved.map(JSONValue.string)),
            "moves": JSONValue(integerLiteral: moved.count),
            "scan_depth": scanDepth.map { ReportJSON.number($0, decimals: ReportNumber.scanDepthDecimals) } ?? .null,
            "seconds": seconds.map { ReportJSON.number($0, decimals: ReportNumber.secondsDecimals) } ?? .null,
            "gain_share": gainShare.map { ReportJSON.number($0, decimals: ReportNumber.shareDecimals) } ?? .null,
            "stability": stability.map { ReportJSON.number($0, decimals: ReportNumber.shareDecimals) } ?? .null,
            "why_not": whyNot.map(JSONValue.string) ?? .null,
        ]
    }

    init(json: JSONValue, path: String) throws(ReportError) {
        let object = try ReportJSON.Object(json, path: path)
        let groups = try object.member("groups")
        self.init(step: try object.string("step"), filed: try object.bool("filed"),
                  layout: groups.isNull ? nil : try object.layout("groups"),
                  moved: try object.optionalStrings("moved") ?? [], scanDepth: try object.optionalNumber("scan_depth"),
                  seconds: try object.optionalNumber("seconds"), gainShare: try object.optionalNumber("gain_share"),
                  stability: try object.optionalNumber("stability"), whyNot: try object.optionalString("why_not"))
    }

    /// "promote: 6 moves, scan depth 7.37, 0.62 s per pick, 94% of the best gain, stability 97%"
    /// or "regroup: not offered (why)".
    public var sentence: String {
        guard offered else { return "\(step): not offered (\(whyNot ?? "no reason given"))" }
        var parts = ["\(moved.count) \(moved.count == 1 ? "move" : "moves")"]
        if let scanDepth { parts.append("scan depth \(ReportNumber.decimal(scanDepth, decimals: 2))") }
        if let seconds { parts.append("\(ReportNumber.decimal(seconds, decimals: 2)) s per pick") }
        if let gainShare { parts.append("\(ReportNumber.percent(gainShare)) of the best gain") }
        if let stability { parts.append("stability \(ReportNumber.percent(stability))") }
        let head = "\(step)\(filed ? " (filed)" : ""): " + parts.joined(separator: ", ")
        return whyNot.map { head + "; not filed: " + $0 } ?? head
    }
}
