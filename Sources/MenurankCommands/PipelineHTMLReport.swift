import Menus
import Reports

/// A self-contained HTML page (no scripts, no external files) of a recommend report: per element
/// type a bar chart of each command's share, with its position in the current and proposed menu.
enum PipelineHTMLReport {
    static func render(_ report: RecommendReport, titles: [String: CommandInfo]) -> String {
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>menurank: \(escape(report.app))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
            table{border-collapse:collapse;margin:1em 0}td,th{padding:2px 8px;text-align:left}
            td.n{text-align:right;font-variant-numeric:tabular-nums}
            .bar{background:#4a7bd0;height:12px}.bar.p{background:#c44}
            .moved{color:#0a6}.pruned{color:#c44}
            </style></head><body>
            <h1>\(escape(report.app))</h1>
            <p>Window \(report.from) to \(report.to). \(report.changedCount) of \(report.elementTypes.count) element types have a proposal.</p>

            """
        for document in report.elementTypes {
            let moves = Dictionary(uniqueKeysWithValues: document.moves.map { ($0.command, $0) })
            let pruned = Set(document.prune.map(\.command))
            let top = max(document.commands.map(\.share).max() ?? 0, 0.0001)
            out += "<h2>\(escape(document.elementType))</h2>\n"
            out += "<p>\(document.selections) selections, \(document.users) users, \(document.dismissals) dismissals; "
                + "scan depth \(ReportNumber.decimal(document.scanDepthCurrent, decimals: 2)) → "
                + "\(ReportNumber.decimal(document.scanDepthProposed, decimals: 2))"
                + (document.changed ? "" : "; no significant change") + "</p>\n"
            out += "<table><tr><th>command</th><th>share</th><th></th><th>current</th><th>proposed</th><th>users</th></tr>\n"
            for command in document.commands {
                let move = moves[command.command]
                let width = Int((command.share / top * 300).rounded())
                let css = pruned.contains(command.command) ? "bar p" : "bar"
                let title = titles[command.command]?.title ?? command.command
                let rowClass = pruned.contains(command.command) ? " class=\"pruned\"" : (move?.isChange == true ? " class=\"moved\"" : "")
                out += "<tr\(rowClass)><td title=\"\(escape(command.command))\">\(escape(title))</td>"
                out += "<td class=\"n\">\(ReportNumber.percent(command.share))</td>"
                out += "<td><div class=\"\(css)\" style=\"width:\(width)px\"></div></td>"
                out += "<td class=\"n\">\(move?.from?.label ?? "–")</td><td class=\"n\">\(move?.to?.label ?? (pruned.contains(command.command) ? "pruned" : "–"))</td>"
                out += "<td class=\"n\">\(command.users)</td></tr>\n"
            }
            out += "</table>\n"
            if !document.lint.isEmpty {
                out += "<ul>\n"
                for finding in document.lint {
                    out += "<li><b>\(escape(finding.rule.rawValue))</b> \(escape(finding.severity.rawValue)) <code>\(escape(finding.path))</code>: \(escape(finding.message))</li>\n"
                }
                out += "</ul>\n"
            }
        }
        return out + "</body></html>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
