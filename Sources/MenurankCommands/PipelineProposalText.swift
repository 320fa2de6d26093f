import Menus
import Reports

/// Plain text and Markdown of a proposal document, for recommend and proposals show / diff: the
/// evidence, then the diff item by item (old and new position), prune flags, lint findings and the
/// scan-depth change.
enum PipelineProposalText {
    static func text(_ document: ProposalDocument, titles: [String: CommandInfo]) -> String {
        var out = "\(document.elementType): \(document.selections) selections, \(document.users) users, "
            + "\(document.dismissals) dismissals\n"
        if !document.changed {
            out += "  no significant change\n"
        } else {
            out += "  proposal: " + (document.proposalID.map { "#\($0)" } ?? "not filed") + "\n"
        }
        out += "  scan depth \(ReportNumber.decimal(document.scanDepthCurrent, decimals: 2)) -> "
            + "\(ReportNumber.decimal(document.scanDepthProposed, decimals: 2)) items, "
            + "about \(ReportNumber.decimal(document.timeSavedSeconds, decimals: 2)) s saved per selection\n"
        out += "  current:\n" + PipelineLayoutText.lines(document.current, titles: titles, indent: "    ")
        if document.changed {
            out += "  proposed:\n" + PipelineLayoutText.lines(document.proposed, titles: titles, indent: "    ")
            out += moves(document)
        }
        if !document.prune.isEmpty {
            out += "  prune:\n"
            for flag in document.prune {
                out += "    \(flag.command): \(ReportNumber.percent(flag.share)) of selections "
                    + "(\(ReportNumber.percent(flag.shareLow)) - \(ReportNumber.percent(flag.shareHigh))), "
                    + "\(flag.selections) selections, \(flag.users) users\n"
            }
        }
        if !document.unknownCommands.isEmpty {
            out += "  not in the menu: " + document.unknownCommands.map { "\($0.command) (\($0.selections))" }
                .joined(separator: ", ") + "\n"
        }
        for finding in document.lint {
            out += "  \(finding.severity) \(finding.rule) \(finding.path): \(finding.message)\n"
        }
        return out
    }

    static func moves(_ document: ProposalDocument) -> String {
        var rows: [[String]] = []
        for move in document.moves where move.isChange {
            rows.append([move.command, move.from?.label ?? "-", "->", move.to?.label ?? "-", move.change.rawValue])
        }
        guard !rows.isEmpty else { return "" }
        return "  moves:\n" + PipelineRankOutput.aligned(rows, rightAligned: [1, 3])
            .split(separator: "\n").map { "  " + $0 + "\n" }.joined()
    }

    static func markdown(_ document: ProposalDocument) -> String {
        var out = "### \(document.elementType)\n\n"
        out += "\(document.selections) selections, \(document.users) users, \(document.dismissals) dismissals. "
        out += document.changed
            ? "Proposal " + (document.proposalID.map { "#\($0)" } ?? "(not filed)") + ".\n\n"
            : "No significant change.\n\n"
        out += "Scan depth \(ReportNumber.decimal(document.scanDepthCurrent, decimals: 2)) → "
            + "\(ReportNumber.decimal(document.scanDepthProposed, decimals: 2)) items per selection.\n\n"
        if document.changed {
            out += "| command | from | to | change |\n|---|---:|---:|---|\n"
            for move in document.moves {
                out += "| `\(move.command)` | \(move.from?.label ?? "–") | \(move.to?.label ?? "–") | \(move.change.rawValue) |\n"
            }
            out += "\n"
        }
        if !document.prune.isEmpty {
            out += "Prune:\n\n"
            for flag in document.prune {
                out += "- `\(flag.command)`: \(ReportNumber.percent(flag.share)) "
                    + "(\(ReportNumber.percent(flag.shareLow))–\(ReportNumber.percent(flag.shareHigh))), "
                    + "\(flag.users) users\n"
            }
            out += "\n"
        }
        if !document.lint.isEmpty {
            out += "Lint:\n\n"
            for finding in document.lint {
                out += "- **\(finding.rule)** (\(finding.severity)) `\(finding.path)`: \(finding.message)\n"
            }
            out += "\n"
        }
        return out
    }
}
