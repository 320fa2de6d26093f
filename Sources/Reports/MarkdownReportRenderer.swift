import Escaping

/// Review output that fits a pull-request description: headings, a summary sentence, a table of
/// items with their old and new positions, a prune table, unknown commands and a lint list.
/// `titles` maps command ids to the titles shown; commands without one show their id.
///
/// Every name from data (command ids and titles, submenu titles, element types, app names) is a
/// code span (`MarkdownText.code`), never plain text: telemetry and manifests must not turn into
/// links, mentions or HTML where the Markdown is shown.
public struct MarkdownReportRenderer: Sendable {
    public var titles: [String: String]
    /// Level of the heading of one element type (3: `###`); a report's title is one level up.
    public var headingLevel: Int

    public init(titles: [String: String] = [:], headingLevel: Int = 3) {
        self.titles = titles
        self.headingLevel = min(max(headingLevel, 2), 6)
    }

    public func render(_ document: ProposalDocument) -> String {
        let hashes = String(repeating: "#", count: headingLevel)
        var title = "\(hashes) \(MarkdownText.code(document.elementType))"
        if let id = document.proposalID { title += " · proposal \(id)" }
        title += document.changed ? " · changed" : " · no change"
        var out = title + "\n\n"
        out += "**Summary:** \(MarkdownText.escaped(document.summaryLine)) "
            + "\(MarkdownText.escaped(document.usageLine)) in the window.\n\n"

        var rows: [[String]] = []
        var group = 1
        func share(_ command: String) -> String {
            document.evidence(for: command).map { ReportNumber.percent($0.share) } ?? ""
        }
        for row in DiffRow.rows(for: document) {
            switch row {
            case .separator:
                group += 1
            case let .submenu(position, title, depth):
                rows.append([String(group), position, prefix(depth) + "▸ **" + MarkdownText.code(title, inTable: true) + "**", "", ""])
            case let .command(position, command, depth, move):
                rows.append([String(group), position, prefix(depth) + label(command), share(command),
                             move.map { MarkdownText.escaped(MoveMarker($0).text) } ?? ""])
            case let .leaving(command, move):
                rows.append(["", "", "~~" + label(command) + "~~", share(command), MarkdownText.escaped(MoveMarker(move).text)])
            }
        }
        out += MarkdownText.table(["Group", "New", "Command", "Share", "Move"],
                                  rightAligned: [true, true, false, true, false], rows: rows)

        if !document.prune.isEmpty {
            out += "\n**Flagged for pruning**\n\n"
            out += evidenceTable(document.prune, interval: true, people: document.users)
        }
        if !document.unknownCommands.isEmpty {
            out += "\n**Seen in telemetry, not in the menu**\n\n"
            out += evidenceTable(document.unknownCommands, interval: false, people: document.users)
        }
        if !document.unpinned.isEmpty {
            out += "\n**Pinned but moved** (no room at their place): "
                + document.unpinned.map { label($0, inTable: false) }.joined(separator: ", ") + "\n"
        }
        if !document.lint.isEmpty {
            out += "\n**Lint**\n\n"
            for finding in document.lint {
                out += "- **\(finding.severity.rawValue)** \(finding.rule.rawValue) at \(MarkdownText.code(finding.path)): "
                    + MarkdownText.escaped(finding.message) + "\n"
            }
        }
        out += "\n**Evidence**\n\n- " + MarkdownText.escaped(document.scanDepthSentence) + "\n"
        for sentence in document.evidence.sentences { out += "- " + MarkdownText.escaped(sentence) + "\n" }
        if !document.ladder.isEmpty {
            out += "\n**Steps** (the filed one is the smallest with enough of the gain)\n\n"
            for rung in document.ladder { out += "- " + MarkdownText.escaped(rung.sentence) + "\n" }
        }
        return out
    }

    /// The run for one app: a title, the window and a count, then every element type.
    public func render(_ report: RecommendReport) -> String {
        let hashes = String(repeating: "#", count: headingLevel - 1)
        let count = report.elementTypes.count
        var out = "\(hashes) Menu proposals for \(MarkdownText.code(report.app))\n\n"
        out += "Window \(report.from) to \(report.to): \(count) element \(count == 1 ? "type" : "types"), "
            + "\(report.changedCount) with changes.\n"
        for document in report.elementTypes {
            out += "\n" + render(document)
        }
        return out
    }

    /// `menurank proposals list` as a table.
    public func render(_ proposals: [ProposalSummary]) -> String {
        guard !proposals.isEmpty else { return "No proposals.\n" }
        let rows = proposals.map {
            [String($0.id), MarkdownText.code($0.app, inTable: true), MarkdownText.code($0.elementType, inTable: true),
             MarkdownText.escaped($0.status), ReportDate.minute($0.created), String($0.changedItems)]
        }
        return MarkdownText.table(["ID", "App", "Element type", "Status", "Created (UTC)", "Changed"],
                                  rightAligned: [true, false, false, false, false, true], rows: rows)
    }

    private func label(_ command: String, inTable: Bool = true) -> String {
        MarkdownText.code(titles[command] ?? command, inTable: inTable)
    }

    private func prefix(_ depth: Int) -> String { String(repeating: "↳ ", count: depth) }

    private func evidenceTable(_ rows: [CommandEvidence], interval: Bool, people: Int) -> String {
        var header = ["Command", "Selections", "User-days", "Share"]
        var right = [false, true, true, true]
        if interval {
            header.append("Interval")
            right.append(true)
        }
        header.append("Users")
        right.append(true)
        if interval {
            header.append("Reach")
            right.append(false)
        }
        let cells = rows.map { row -> [String] in
            var cells = [label(row.command), ReportNumber.grouped(row.selections),
                         ReportNumber.decimal(row.userDays, decimals: 1, trimmingZeros: true), ReportNumber.percent(row.share)]
            if interval { cells.append(ReportNumber.percent(row.shareLow) + " – " + ReportNumber.percent(row.shareHigh)) }
            cells.append(ReportNumber.grouped(row.users))
            if interval { cells.append(MarkdownText.escaped(row.reachSentence(people: people))) }
            return cells
        }
        return MarkdownText.table(header, rightAligned: right, rows: cells)
    }
}
