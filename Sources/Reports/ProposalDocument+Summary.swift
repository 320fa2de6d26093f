extension ProposalDocument {
    /// One sentence for people: `reorder: 2 of 9 commands change group or submenu (5 change
    /// position), 1 pruned, 1 lint finding; scan depth 3.41 → 3.20 items per selection, about
    /// 0.09 s saved per selection.`
    ///
    /// The count is the filed step's cost as the ladder counts it (commands whose group or
    /// submenu changes), not every command whose position changes: promoting 6 commands to the
    /// head of a 73-command menu shifts the other 67 down without moving them, and "71 of 73
    /// commands move" alone told a reviewer the opposite of what the step does (the positions
    /// that change follow in brackets). Documents filed before the ladder (no filed step) count
    /// the commands whose position changes, as they always did.
    public var summaryLine: String {
        let moves = self.moves
        let left = moves.filter { $0.change == .pruned || $0.change == .removed }.count
        var parts: [String] = []
        if changed {
            let moved = moves.filter { $0.isChange && $0.change != .pruned && $0.change != .removed }.count
            if let rung = ladder.first(where: { $0.filed }) {
                let leaving = Set(moves.filter { $0.change == .pruned || $0.change == .removed }.map(\.command))
                let regrouped = rung.moved.filter { !leaving.contains($0) }.count
                parts.append("\(rung.step): \(regrouped) of \(moves.count) \(moves.count == 1 ? "command" : "commands") "
                    + "\(regrouped == 1 ? "changes" : "change") group or submenu (\(moved) change position)")
            } else {
                parts.append("\(moved) of \(moves.count) \(moves.count == 1 ? "command moves" : "commands move")")
            }
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
