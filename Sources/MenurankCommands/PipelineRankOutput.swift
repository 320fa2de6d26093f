import Foundation
import Ranking
import Reports

/// The output of `menurank rank`: an aligned table, or CSV with one row per command (its JSON is
/// `Reports.RankDocument`, shared with the admin API).
enum PipelineRankOutput {
    /// `element_type,command,selections,share,share_low,share_high,user_days,users,menu_users,reach,reach_low,
    /// reach_high,previous_selections,trend_percent`.
    static func csv(_ ranked: [ElementTypeUsage]) -> String {
        var out = "element_type,command,selections,share,share_low,share_high,user_days,users,menu_users,reach,"
            + "reach_low,reach_high,previous_selections,trend_percent\n"
        for usage in ranked {
            for command in usage.commands {
                let fields = [
                    field(usage.elementType), field(command.command), String(command.selections),
                    number(command.share), number(command.shareInterval.lower), number(command.shareInterval.upper),
                    String(command.userDays), String(command.users), String(usage.users), number(command.reach.estimate),
                    number(command.reach.lower), number(command.reach.upper), String(command.previousSelections),
                    command.trend.map { number($0.percentChange, decimals: 1) } ?? "",
                ]
                out += fields.joined(separator: ",") + "\n"
            }
        }
        return out
    }

    static func table(app: String, window: RankingWindow, _ ranked: [ElementTypeUsage], declared: Set<String>?) -> String {
        var out = "\(app), \(ReportDate.day(window.firstDay)) to \(ReportDate.day(window.asOf))"
        if let halfLife = window.halfLife { out += ", half-life \(number(halfLife, decimals: 1)) days" }
        out += "\n"
        if ranked.isEmpty { return out + "no use in this window\n" }
        for usage in ranked {
            out += "\n\(usage.elementType): \(usage.selections) selections, \(usage.users) users"
            if let rate = usage.dismissalRate { out += ", dismissal rate \(percent(rate))" }
            if let trend = usage.trend { out += ", trend \(signedPercent(trend.percentChange))" }
            out += "\n"
            if let undeclared = RankDocument.undeclared(usage, declared: declared), undeclared.selections > 0 {
                out += "  \(undeclared.selections) selections of commands the manifest does not declare: "
                    + undeclared.commands.joined(separator: ", ") + " (HIG-1)\n"
            }
            var rows = [["command", "selections", "share", "95% interval", "user-days", "used by", "reach",
                         "95% interval", "trend"]]
            for command in usage.commands {
                rows.append([command.command, String(command.selections), percent(command.share),
                             "\(percent(command.shareInterval.lower)) - \(percent(command.shareInterval.upper))",
                             String(command.userDays), "\(command.users) of \(usage.users)", percent(command.reach.estimate),
                             "\(percent(command.reach.lower)) - \(percent(command.reach.upper))",
                             command.trend.map { signedPercent($0.percentChange) } ?? "new"])
            }
            out += aligned(rows, rightAligned: [1, 2, 3, 4, 5, 6, 7, 8])
        }
        return out
    }

    /// Rows as columns padded to their widest cell, two spaces apart, indented by two.
    static func aligned(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in rows {
            let cells = row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : (i == row.count - 1 ? cell : cell + pad)
            }
            out += "  " + cells.joined(separator: "  ") + "\n"
        }
        return out
    }

    static func number(_ value: Double, decimals: Int = 6) -> String { String(format: "%.\(decimals)f", value) }

    static func percent(_ value: Double) -> String { String(format: "%.2f%%", value * 100) }

    static func signedPercent(_ value: Double) -> String { String(format: "%+.1f%%", value) }

    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
