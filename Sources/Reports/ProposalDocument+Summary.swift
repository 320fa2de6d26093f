extension ProposalDocument {
    /// One sentence for people: `7 of 9 commands move, 1 pruned, 1 lint finding; scan depth
    /// 3.4118 → 3.1953 items per selection, about 0.09 s saved per selection.`
    public var summaryLine: String {
        let moves = self.moves
        let moved = moves.filter { $0.isChange && $0.change != .pruned && $0.change != .removed }.count
        let left = moves.filter { $0.change == .pruned || $0.change == .removed }.count
        var parts: [String] = []
        if changed {
            parts.append("\(moved) of \(moves.count) \(moves.count == 1 ? "command moves" : "commands move")")
            if left > 0 { parts.append("\(left) pruned") }
        } else {
            parts.append("no change")
        }
        parts.append("\(lint.count) lint \(lint.count == 1 ? "finding" : "findings")")
        return parts.joined(separator: ", ") + "; " + scanDepthSentence + "."
    }

    /// `scan depth 3.4118 → 3.1953 items per selection, about 0.09 s saved per selection`.
    var scanDepthSentence: String {
        let depths = "scan depth \(ReportNumber.decimal(scanDepthCurrent, decimals: 2)) → "
            + "\(ReportNumber.decimal(scanDepthProposed, decimals: 2)) items per selection"
        let seconds = ReportNumber.decimal(abs(timeSavedSeconds), decimals: 2)
        if seconds == "0.00" { return depths + ", no time saved" }
        return depths + (timeSavedSeconds > 0 ? ", about \(seconds) s saved per selection"
                                              : ", about \(seconds) s more per selection")
    }

    /// `10,140 selections, 812 users, 120 dismissals`.
    var usageLine: String {
        "\(ReportNumber.grouped(selections)) selections, \(ReportNumber.grouped(users)) users, "
            + "\(ReportNumber.grouped(dismissals)) dismissals"
    }
}
