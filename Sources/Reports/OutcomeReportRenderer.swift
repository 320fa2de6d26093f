import CivilTime
import Escaping
public import Outcomes

/// `menurank outcomes` as text for a terminal (aligned, optionally coloured) or as Markdown for a
/// pull request: per element type, a table of its menu versions, then each accepted layout against
/// its predecessor with the verdict beside the proposal's prediction.
public struct OutcomeReportRenderer: Sendable {
    public var colour: Bool

    public init(colour: Bool = false) { self.colour = colour }

    public func text(_ report: OutcomeReport) -> String {
        var lines = ["\(TerminalText.visible(report.app)): outcomes \(ReportDate.day(report.windowFrom)) to \(ReportDate.day(report.windowTo))"]
        if report.elementTypes.isEmpty {
            lines.append("  no menu opens in the window (run menurank rollup for the newest events)")
        }
        for element in report.elementTypes {
            lines.append("")
            lines.append(TextStyle.bold.apply(element.elementType, colour: colour))
            var table = TextTable([.left, .left, .right, .right, .right, .right, .right, .right])
            table.add(Self.header.map { StyledText($0, .dim) })
            for version in element.versions { table.add(Self.cells(version).map { StyledText($0) }) }
            lines += table.lines(colour: colour)
            for comparison in element.comparisons {
                lines.append("")
                lines += Self.comparisonLines(comparison).map { "  " + TerminalText.visible($0) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public func markdown(_ report: OutcomeReport) -> String {
        var out = "## Outcomes: \(MarkdownText.code(report.app)), \(ReportDate.day(report.windowFrom)) to "
            + "\(ReportDate.day(report.windowTo))\n"
        if report.elementTypes.isEmpty { out += "\nNo menu opens in the window.\n" }
        for element in report.elementTypes {
            out += "\n### \(MarkdownText.code(element.elementType))\n\n"
            out += MarkdownText.table(Self.header, rightAligned: [false, false, true, true, true, true, true, true],
                                      rows: element.versions.map(Self.markdownCells))
            for comparison in element.comparisons {
                out += "\n" + Self.comparisonLines(comparison).map { "- " + MarkdownText.escaped($0) }.joined(separator: "\n")
                out += "\n"
            }
        }
        return out
    }

    /// A version's cells for a Markdown table: the menu version (data) as a code span, the rest
    /// (the renderer's own) escaped.
    static func markdownCells(_ v: VersionOutcome) -> [String] {
        let cells = Self.cells(v)
        let version = v.menuVersion.isEmpty ? MarkdownText.escaped(cells[0]) : MarkdownText.code(cells[0], inTable: true)
        return [version] + cells.dropFirst().map(MarkdownText.escaped)
    }

    static let header = ["menu version", "layout", "opens", "dismissed (95% CI)", "median ms (95% CI)",
                         "p75 ms (95% CI)", "mean position", "scan depth"]

    static func cells(_ v: VersionOutcome) -> [String] {
        let layout: String
        switch v.status {
        case let .known(layoutVersion, proposalID):
            layout = "v\(layoutVersion)" + (proposalID.map { " (proposal #\($0))" } ?? " (manifest)")
        case let .rollout(rolloutID, proposalID): layout = "rollout #\(rolloutID) (proposal #\(proposalID))"
        case .unknown: layout = "unknown"
        case .notSent: layout = "not sent"
        }
        return [v.menuVersion.isEmpty ? "-" : v.menuVersion, layout, ReportNumber.grouped(Int(v.tally.opens)),
                rate(v.tally), quantile(v.tally.medianLatency), quantile(v.tally.p75Latency),
                v.tally.meanPosition.map { ReportNumber.decimal($0, decimals: 2) } ?? "-",
                v.tally.meanScanDepth.map { ReportNumber.decimal($0, decimals: 2) } ?? "-"]
    }

    static func rate(_ t: OutcomeTally) -> String {
        guard t.opens > 0 else { return "-" }
        let r = t.dismissalRate
        return "\(ReportNumber.percent(r.estimate, decimals: 1)) (\(ReportNumber.percent(r.lower, decimals: 1))-"
            + "\(ReportNumber.percent(r.upper, decimals: 1)))"
    }

    static func quantile(_ q: QuantileEstimate?) -> String {
        guard let q else { return "-" }
        return "\(ms(q.estimate)) (\(ms(q.lower))-\(ms(q.upper)))"
    }

    static func ms(_ x: Double) -> String { ReportNumber.decimal(x, decimals: 0) }

    static func signed(_ x: Double, _ render: (Double) -> String) -> String { (x > 0 ? "+" : "") + render(x) }

    static func comparisonLines(_ c: LayoutComparison) -> [String] {
        let o = c.comparison
        var lines: [String] = []
        let origin = c.proposalID.map { "proposal #\($0)" } ?? "a proposal"
        lines.append("\(c.newMenuVersion) (layout v\(c.newLayoutVersion), accepted from \(origin)) against "
            + "\(c.oldMenuVersion) (v\(c.oldLayoutVersion)): \(o.verdict.rawValue)")
        switch o.method {
        case .sameDays(let days):
            lines.append("compared over the same \(days.count) day(s) on which both were served "
                + "(\(ReportDate.day(days.first!)) to \(ReportDate.day(days.last!)))")
        case .adjacentWindows(let before, let after):
            func span(_ d: [CivilDate]) -> String {
                guard let first = d.first, let last = d.last else { return "no days" }
                return "\(ReportDate.day(first)) to \(ReportDate.day(last))"
            }
            lines.append("compared over adjacent windows: before \(span(before)), after \(span(after)) "
                + "(no days with enough opens of both)")
        }
        if let d = o.medianLatency {
            lines.append("median latency \(signed(d.estimate, ms)) ms (95% CI \(signed(d.lower, ms)) to "
                + "\(signed(d.upper, ms))): \(quantile(o.old.medianLatency)) -> \(quantile(o.new.medianLatency))")
        } else {
            lines.append("median latency: no latencies reported on one side")
        }
        let r = o.dismissalRate
        func pp(_ x: Double) -> String { ReportNumber.decimal(x * 100, decimals: 2) }
        lines.append("dismissal rate \(signed(r.estimate, pp)) points (95% CI \(signed(r.lower, pp)) to "
            + "\(signed(r.upper, pp))): \(rate(o.old)) -> \(rate(o.new))")
        let observed = "observed scan depth \(o.old.meanScanDepth.map { ReportNumber.decimal($0, decimals: 2) } ?? "-") -> "
            + "\(o.new.meanScanDepth.map { ReportNumber.decimal($0, decimals: 2) } ?? "-")"
        if let p = c.predicted {
            var line = "predicted scan depth \(ReportNumber.decimal(p.scanDepthBefore, decimals: 2)) -> "
                + "\(ReportNumber.decimal(p.scanDepthAfter, decimals: 2))"
            if let saved = p.timeSavedSeconds {
                line += ", \(ReportNumber.decimal(saved * 1000, decimals: 0)) ms saved per selection"
            }
            lines.append(line + "; " + observed)
        } else {
            lines.append(observed + " (the proposal's prediction is not available)")
        }
        if let reason = o.reason { lines.append("no evidence yet: \(reason)") }
        return lines
    }
}
