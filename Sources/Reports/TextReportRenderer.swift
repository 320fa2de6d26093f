import Escaping
import Menus

/// Review output for terminals: aligned columns, group separators, moves marked with their old
/// and new positions, prune flags with their evidence, lint findings and the scan-depth change.
///
/// A pure function of its input: `colour` adds ANSI codes (the caller turns it on for a TTY
/// with `NO_COLOR` unset); alignment counts display columns, not bytes. `titles` maps command
/// ids to the titles shown (from the app's manifest); commands without one show their id.
public struct TextReportRenderer: Sendable {
    public var colour: Bool
    public var titles: [String: String]

    public init(colour: Bool, titles: [String: String] = [:]) {
        self.colour = colour
        self.titles = titles
    }

    /// One element type: header, item-by-item diff, prune flags, unknown commands, lint, scan depth.
    public func render(_ document: ProposalDocument) -> String {
        var lines: [String] = []
        var header = style(document.elementType, .bold)
        if let id = document.proposalID { header += "  proposal \(id)" }
        header += "  " + (document.changed ? style("changed", .yellow) : style("no change", .dim))
        lines.append(header)
        lines.append(document.usageLine)
        lines.append("")
        lines += diffTable(document).lines(colour: colour)

        if !document.prune.isEmpty {
            lines.append("")
            lines.append(style("Flagged for pruning:", .bold))
            lines += evidenceTable(document.prune, interval: true, people: document.users).lines(colour: colour)
        }
        if !document.unknownCommands.isEmpty {
            lines.append("")
            lines.append(style("Seen in telemetry, not in the menu:", .bold))
            lines += evidenceTable(document.unknownCommands, interval: false, people: document.users).lines(colour: colour)
        }
        if !document.unpinned.isEmpty {
            lines.append("")
            lines.append(style("Pinned but moved", .bold) + " (no room at their place): "
                + TerminalText.visible(document.unpinned.map(label).joined(separator: ", ")))
        }
        if !document.lint.isEmpty {
            lines.append("")
            lines.append(style("Lint:", .bold))
            var table = TextTable([.left, .left, .left, .left])
            for finding in document.lint {
                table.add([StyledText(finding.severity.rawValue, Self.severityStyle(finding.severity)),
                           StyledText(finding.rule.rawValue), StyledText(finding.path, .dim),
                           StyledText(finding.message)])
            }
            lines += table.lines(colour: colour)
        }
        lines.append("")
        let sentence = document.scanDepthSentence
        lines.append(style("Scan depth:", .bold) + " " + TerminalText.visible(String(sentence.dropFirst("scan depth ".count))))
        for sentence in document.evidence.sentences {
            lines.append(style("Evidence:", .bold) + " " + TerminalText.visible(sentence))
        }
        for rung in document.ladder {
            lines.append(style("Step:", .bold) + " " + TerminalText.visible(rung.sentence))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The run for one app: a header line, then every element type.
    public func render(_ report: RecommendReport) -> String {
        let count = report.elementTypes.count
        var out = style(report.app, .bold) + ": \(report.from) to \(report.to), \(count) element "
            + (count == 1 ? "type" : "types") + ", \(report.changedCount) with changes\n"
        for document in report.elementTypes {
            out += "\n" + render(document)
        }
        return out
    }

    /// `menurank proposals list`: id, app, element type, status, created (UTC), changed items.
    public func render(_ proposals: [ProposalSummary]) -> String {
        guard !proposals.isEmpty else { return "No proposals.\n" }
        var table = TextTable([.right, .left, .left, .left, .left, .right])
        table.indent = ""
        table.add(["ID", "APP", "ELEMENT TYPE", "STATUS", "CREATED (UTC)", "CHANGED"].map { StyledText($0, .bold) })
        for p in proposals {
            table.add([StyledText(String(p.id)), StyledText(p.app), StyledText(p.elementType),
                       StyledText(p.status, Self.statusStyle(p.status)), StyledText(ReportDate.minute(p.created)),
                       StyledText(String(p.changedItems))])
        }
        return table.lines(colour: colour).map { $0 + "\n" }.joined()
    }

    private func label(_ command: String) -> String { titles[command] ?? command }

    private func style(_ text: String, _ style: TextStyle) -> String { style.apply(text, colour: colour) }

    private func diffTable(_ document: ProposalDocument) -> TextTable {
        var table = TextTable([.right, .left, .right, .left])
        table.add([StyledText("new", .dim), StyledText("command", .dim), StyledText("share", .dim),
                   StyledText("move", .dim)])
        func share(_ command: String) -> StyledText {
            StyledText(document.evidence(for: command).map { ReportNumber.percent($0.share) } ?? "")
        }
        for row in DiffRow.rows(for: document) {
            switch row {
            case .separator:
                table.addSeparator()
            case let .submenu(position, title, depth):
                table.add([StyledText(position), StyledText(String(repeating: "  ", count: depth) + "▸ " + title, .cyan)])
            case let .command(position, command, depth, move):
                let marker = move.map(MoveMarker.init)
                table.add([StyledText(position), StyledText(String(repeating: "  ", count: depth) + label(command)),
                           share(command), StyledText(marker?.text ?? "", marker?.style ?? .plain)])
            case let .leaving(command, move):
                let marker = MoveMarker(move)
                table.add([StyledText(""), StyledText(label(command), .dim), share(command),
                           StyledText(marker.text, marker.style)])
            }
        }
        return table
    }

    private func evidenceTable(_ rows: [CommandEvidence], interval: Bool, people: Int) -> TextTable {
        var table = TextTable(interval ? [.left, .right, .right, .right, .right, .right, .left]
                                       : [.left, .right, .right, .right, .right])
        var head = ["command", "selections", "user-days", "share"]
        if interval { head.append("interval") }
        head.append("users")
        if interval { head.append("reach") }
        table.add(head.map { StyledText($0, .dim) })
        for row in rows {
            var cells = [StyledText(label(row.command)), StyledText(ReportNumber.grouped(row.selections)),
                         StyledText(ReportNumber.decimal(row.userDays, decimals: 1, trimmingZeros: true)),
                         StyledText(ReportNumber.percent(row.share), interval ? .red : .plain)]
            if interval {
                cells.append(StyledText(ReportNumber.percent(row.shareLow) + " – " + ReportNumber.percent(row.shareHigh)))
            }
            cells.append(StyledText(ReportNumber.grouped(row.users)))
            if interval { cells.append(StyledText(row.reachSentence(people: people))) }
            table.add(cells)
        }
        return table
    }

    static func severityStyle(_ severity: LintSeverity) -> TextStyle {
        switch severity {
        case .error: return .boldRed
        case .warning: return .yellow
        case .info: return .blue
        }
    }

    static func statusStyle(_ status: String) -> TextStyle {
        switch status {
        case "pending": return .yellow
        case "accepted": return .green
        case "rejected": return .red
        case "superseded": return .dim
        default: return .plain
        }
    }
}
