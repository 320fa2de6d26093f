import Escaping
import Menus
public import Outcomes

/// A self-contained HTML page (inline CSS and SVG, no scripts, no external assets) for people who
/// review proposals in a browser: per element type a bar chart of use per command (share with its
/// Wilson interval as a whisker, current and proposed position), the current and proposed
/// layouts, the prune list and lint findings. Every piece of text from the data is escaped
/// (`HTMLText`), and the page carries its own Content-Security-Policy (`contentSecurityPolicy`, as a
/// `<meta http-equiv>` because a file has no headers) that forbids every script, so that even an
/// escaping mistake cannot run one.
/// `titles` maps command ids to the titles shown; commands without one show their id.
public struct HTMLReportRenderer: Sendable {
    public var titles: [String: String]

    public init(titles: [String: String] = [:]) { self.titles = titles }

    /// The page for one app's run; with `outcomes`, followed by the outcome charts of each menu
    /// version (`OutcomeChartsHTML`), then the app's rollouts (`RolloutChartsHTML`).
    public func render(_ report: RecommendReport, outcomes: OutcomeReport? = nil, rollouts: [RolloutView] = []) -> String {
        let count = report.elementTypes.count
        var body = "<header>\n<h1>Menu proposals for \(esc(report.app))</h1>\n"
        body += "<p>Window \(esc(report.from)) to \(esc(report.to)): \(count) element \(count == 1 ? "type" : "types"), "
            + "\(report.changedCount) with changes.</p>\n</header>\n"
        for (index, document) in report.elementTypes.enumerated() {
            body += section(document, anchor: "element-\(index + 1)")
        }
        if let outcomes { body += OutcomeChartsHTML().section(outcomes) }
        body += RolloutChartsHTML().section(rollouts)
        return page(title: "Menu proposals for \(report.app)", body: body)
    }

    /// A page for a single element type's proposal (`menurank proposals show ID --format html`).
    public func render(_ document: ProposalDocument) -> String {
        var title = "Menu proposal for \(document.elementType)"
        if let id = document.proposalID { title += " (proposal \(id))" }
        return page(title: title, body: section(document, anchor: "element-1"))
    }

    // MARK: - Page

    /// The policy of every report page: nothing but its own inline styles and `data:` images; no
    /// script, no frame, no form, no base URL, no request anywhere. The daemon sends the same as a
    /// header with `GET /v1/admin/reports/ID`.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    private func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
        <title>\(esc(title))</title>
        <style>
        \(Self.css)
        </style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    static let css = """
        body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f; margin: 2em auto; max-width: 60em; padding: 0 1em; }
        h1 { font-size: 1.6em; margin-bottom: 0.2em; }
        h2 { font-size: 1.25em; border-bottom: 1px solid #d2d2d7; padding-bottom: 0.2em; margin-top: 2em; }
        h3 { font-size: 1em; margin: 1.2em 0 0.4em; }
        code { font: 0.95em ui-monospace, Menlo, Consolas, monospace; }
        .tag { font-size: 0.75em; padding: 0.1em 0.5em; border-radius: 0.8em; vertical-align: middle; }
        .tag.changed { background: #fff4ce; color: #7a5b00; }
        .tag.unchanged { background: #ececf0; color: #555; }
        .summary { color: #424245; }
        .chart { display: block; max-width: 100%; height: auto; margin: 0.6em 0; }
        .chart text { font: 12px -apple-system, "Segoe UI", Roboto, sans-serif; fill: #1d1d1f; }
        .chart .axis { stroke: #d2d2d7; }
        .chart .bar { fill: #8e8e93; }
        .chart .bar.moved_up { fill: #34a853; }
        .chart .bar.moved_down { fill: #f29900; }
        .chart .bar.pruned, .chart .bar.removed { fill: #d93025; }
        .chart .bar.moved_into_submenu, .chart .bar.moved_out_of_submenu { fill: #1a73e8; }
        .chart .bar.unknown { fill: #c7c7cc; }
        .chart .whisker { stroke: #1d1d1f; stroke-width: 1.2; }
        .layouts { display: flex; gap: 2em; flex-wrap: wrap; align-items: flex-start; }
        table { border-collapse: collapse; }
        caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
        td, th { padding: 0.15em 0.7em 0.15em 0; text-align: left; }
        th { color: #6e6e73; font-weight: 500; }
        td.num, th.num { text-align: right; }
        tr.separator td { border-top: 1px solid #d2d2d7; padding: 0; height: 0.35em; }
        tr.submenu td { font-weight: 600; }
        .moved_up { color: #188038; }
        .moved_down { color: #b06000; }
        .pruned, .removed { color: #c5221f; }
        .moved_into_submenu, .moved_out_of_submenu, .regrouped { color: #1967d2; }
        .unchanged { color: #86868b; }
        tr.leaving td.label { text-decoration: line-through; color: #86868b; }
        .lint li { margin: 0.2em 0; }
        .severity { font-weight: 600; text-transform: uppercase; font-size: 0.8em; }
        .severity.error { color: #c5221f; }
        .severity.warning { color: #b06000; }
        .severity.info { color: #1967d2; }
        """

    // MARK: - One element type

    private func section(_ document: ProposalDocument, anchor: String) -> String {
        var out = "<section id=\"\(anchor)\">\n"
        out += "<h2><code>\(esc(document.elementType))</code> "
        out += document.changed ? "<span class=\"tag changed\">changed</span>"
                                : "<span class=\"tag unchanged\">no change</span>"
        if let id = document.proposalID { out += " proposal \(id)" }
        out += "</h2>\n"
        out += "<p class=\"summary\">\(esc(document.usageLine)). \(esc(document.summaryLine))</p>\n"
        out += "<h3>Use per command</h3>\n"
        out += chart(document)
        out += "<div class=\"layouts\">\n"
        out += currentTable(document)
        out += proposedTable(document)
        out += "</div>\n"
        if !document.prune.isEmpty {
            out += "<h3>Flagged for pruning</h3>\n" + evidenceTable(document.prune, interval: true, people: document.users)
        }
        if !document.unknownCommands.isEmpty {
            out += "<h3>Seen in telemetry, not in the menu</h3>\n" + evidenceTable(document.unknownCommands, interval: false, people: document.users)
        }
        if !document.unpinned.isEmpty {
            out += "<h3>Pinned but moved</h3>\n<p>No room at their place: "
                + document.unpinned.map { esc(label($0)) }.joined(separator: ", ") + "</p>\n"
        }
        if !document.lint.isEmpty {
            out += "<h3>Lint</h3>\n<ul class=\"lint\">\n"
            for finding in document.lint {
                out += "<li><span class=\"severity \(finding.severity.rawValue)\">\(esc(finding.severity.rawValue))</span> "
                    + "\(esc(finding.rule.rawValue)) at <code>\(esc(finding.path))</code>: \(esc(finding.message))</li>\n"
            }
            out += "</ul>\n"
        }
        out += "<h3>Evidence</h3>\n<ul class=\"evidence\">\n<li>\(esc(document.scanDepthSentence))</li>\n"
        for sentence in document.evidence.sentences { out += "<li>\(esc(sentence))</li>\n" }
        out += "</ul>\n"
        if !document.ladder.isEmpty {
            out += "<h3>Steps</h3>\n<ul class=\"evidence ladder\">\n"
            for rung in document.ladder { out += "<li>\(esc(rung.sentence))</li>\n" }
            out += "</ul>\n"
        }
        out += "</section>\n"
        return out
    }

    /// Horizontal bars of share per command with the Wilson interval as a whisker, and the
    /// command's current and proposed position on the right.
    private func chart(_ document: ProposalDocument) -> String {
        let rows = document.commands + document.unknownCommands.filter { document.evidence(for: $0.command) == nil }
        guard !rows.isEmpty else { return "<p>No use recorded in the window.</p>\n" }
        var moves: [String: ItemMove] = [:]
        for move in document.moves where moves[move.command] == nil { moves[move.command] = move }

        let labelWidth = 180.0, barWidth = 380.0, noteWidth = 220.0, rowHeight = 24.0, top = 8.0
        let width = labelWidth + barWidth + noteWidth
        let height = top * 2 + rowHeight * Double(rows.count)
        let scaleMax = max(0.01, rows.map { $0.shareHigh }.max() ?? 0)
        func x(_ share: Double) -> String { num(labelWidth + min(1, share / scaleMax) * barWidth) }

        var out = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(num(width))\" "
            + "height=\"\(num(height))\" viewBox=\"0 0 \(num(width)) \(num(height))\" role=\"img\" "
            + "aria-label=\"Share of selections per command for \(esc(document.elementType))\">\n"
        out += "<line class=\"axis\" x1=\"\(num(labelWidth))\" y1=\"\(num(top))\" x2=\"\(num(labelWidth))\" "
            + "y2=\"\(num(height - top))\"/>\n"
        for (i, row) in rows.enumerated() {
            let y = top + rowHeight * Double(i)
            let mid = y + rowHeight / 2
            let move = moves[row.command]
            let kind = move?.change.jsonName ?? "unknown"
            let name = titles[row.command] ?? row.command
            let tooltip = "\(name): \(ReportNumber.percent(row.share)) (\(ReportNumber.percent(row.shareLow)) – "
                + "\(ReportNumber.percent(row.shareHigh))), \(ReportNumber.grouped(row.selections)) selections, "
                + "\(ReportNumber.grouped(row.users)) users"
            out += "<g>\n<title>\(esc(tooltip))</title>\n"
            out += "<text x=\"\(num(labelWidth - 8))\" y=\"\(num(mid + 4))\" text-anchor=\"end\">\(esc(Self.clipped(name, 26)))</text>\n"
            let barEnd = labelWidth + min(1, row.share / scaleMax) * barWidth
            out += "<rect class=\"bar \(kind)\" x=\"\(num(labelWidth))\" y=\"\(num(y + 5))\" "
                + "width=\"\(num(max(0, barEnd - labelWidth)))\" height=\"\(num(rowHeight - 10))\"/>\n"
            let low = x(row.shareLow), high = x(row.shareHigh)
            out += "<line class=\"whisker\" x1=\"\(low)\" y1=\"\(num(mid))\" x2=\"\(high)\" y2=\"\(num(mid))\"/>\n"
            out += "<line class=\"whisker\" x1=\"\(low)\" y1=\"\(num(mid - 4))\" x2=\"\(low)\" y2=\"\(num(mid + 4))\"/>\n"
            out += "<line class=\"whisker\" x1=\"\(high)\" y1=\"\(num(mid - 4))\" x2=\"\(high)\" y2=\"\(num(mid + 4))\"/>\n"
            out += "<text x=\"\(num(labelWidth + barWidth + 10))\" y=\"\(num(mid + 4))\">"
                + "\(esc(ReportNumber.percent(row.share) + "  " + positionNote(move)))</text>\n</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    private func positionNote(_ move: ItemMove?) -> String {
        guard let move else { return "not in the menu" }
        switch (move.from, move.to) {
        case let (from?, to?): return from.label == to.label ? "at \(to.label)" : "\(from.label) → \(to.label)"
        case let (from?, nil): return "\(from.label) → \(move.change == .pruned ? "pruned" : "removed")"
        case let (nil, to?): return "new at \(to.label)"
        case (nil, nil): return ""
        }
    }

    private func currentTable(_ document: ProposalDocument) -> String {
        var out = "<table class=\"layout\">\n<caption>Current</caption>\n<tbody>\n"
        var top = 0
        func visit(_ item: MenuItem, path: [Int]) {
            let position = path.map(String.init).joined(separator: ".")
            let indent = String(repeating: "&#160;&#160;", count: path.count - 1)
            switch item {
            case let .command(id):
                out += "<tr><td class=\"num\">\(position)</td><td class=\"label\">\(indent)\(esc(label(id)))</td></tr>\n"
            case let .submenu(submenu):
                out += "<tr class=\"submenu\"><td class=\"num\">\(position)</td><td class=\"label\">\(indent)▸ "
                    + "\(esc(submenu.title))</td></tr>\n"
                for (index, inner) in submenu.items.enumerated() { visit(inner, path: path + [index + 1]) }
            }
        }
        for (g, group) in document.current.groups.enumerated() {
            if g > 0 { out += "<tr class=\"separator\"><td colspan=\"2\"></td></tr>\n" }
            for item in group {
                top += 1
                visit(item, path: [top])
            }
        }
        return out + "</tbody>\n</table>\n"
    }

    private func proposedTable(_ document: ProposalDocument) -> String {
        var out = "<table class=\"layout\">\n<caption>Proposed</caption>\n<tbody>\n"
        for row in DiffRow.rows(for: document) {
            switch row {
            case .separator:
                out += "<tr class=\"separator\"><td colspan=\"3\"></td></tr>\n"
            case let .submenu(position, title, depth):
                out += "<tr class=\"submenu\"><td class=\"num\">\(position)</td><td class=\"label\">"
                    + "\(String(repeating: "&#160;&#160;", count: depth))▸ \(esc(title))</td><td></td></tr>\n"
            case let .command(position, command, depth, move):
                let kind = move?.change.jsonName ?? "unchanged"
                let marker = move.map { MoveMarker($0).text } ?? ""
                out += "<tr><td class=\"num\">\(position)</td><td class=\"label\">"
                    + "\(String(repeating: "&#160;&#160;", count: depth))\(esc(label(command)))</td>"
                    + "<td class=\"\(kind)\">\(esc(marker))</td></tr>\n"
            case let .leaving(command, move):
                out += "<tr class=\"leaving\"><td class=\"num\"></td><td class=\"label\">\(esc(label(command)))</td>"
                    + "<td class=\"\(move.change.jsonName)\">\(esc(MoveMarker(move).text))</td></tr>\n"
            }
        }
        return out + "</tbody>\n</table>\n"
    }

    private func evidenceTable(_ rows: [CommandEvidence], interval: Bool, people: Int) -> String {
        var out = "<table>\n<thead><tr><th>Command</th><th class=\"num\">Selections</th><th class=\"num\">User-days</th>"
            + "<th class=\"num\">Share</th>"
        if interval { out += "<th class=\"num\">Interval</th>" }
        out += "<th class=\"num\">Users</th>"
        if interval { out += "<th>Reach</th>" }
        out += "</tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr><td>\(esc(label(row.command)))</td><td class=\"num\">\(ReportNumber.grouped(row.selections))</td>"
                + "<td class=\"num\">\(ReportNumber.decimal(row.userDays, decimals: 1, trimmingZeros: true))</td>"
                + "<td class=\"num\">\(ReportNumber.percent(row.share))</td>"
            if interval {
                out += "<td class=\"num\">\(ReportNumber.percent(row.shareLow)) – \(ReportNumber.percent(row.shareHigh))</td>"
            }
            out += "<td class=\"num\">\(ReportNumber.grouped(row.users))</td>"
            if interval { out += "<td>\(esc(row.reachSentence(people: people)))</td>" }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private func label(_ command: String) -> String { titles[command] ?? command }

    private func esc(_ text: String) -> String { HTMLText.escaped(text) }

    private func num(_ x: Double) -> String { ReportNumber.decimal(x, decimals: 1, trimmingZeros: true) }

    /// At most `limit` characters, with "…" when cut.
    static func clipped(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
