/// The use of one command in a report: selections, share of the element type's selections with
/// its Wilson interval, and reach. The rows of `commands`, `prune` and `unknown_commands`.
///
/// Shares are rounded to `ReportNumber.shareDecimals` places when the value is made, so a
/// document written as JSON and read back is equal to itself.
public struct CommandEvidence: Hashable, Sendable {
    public var command: String
    /// Raw selections in the window.
    public var selections: Int
    public var share: Double
    public var shareLow: Double
    public var shareHigh: Double
    /// Distinct users who picked the command (reach).
    public var users: Int
    /// Distinct people a day who picked it, summed over the window.
    public var userDays: Double
    /// Wilson interval of users / the menu's people (0-0 when that is unknown).
    public var reachLow: Double
    public var reachHigh: Double

    public init(command: String, selections: Int, share: Double, shareLow: Double, shareHigh: Double, users: Int,
                userDays: Double? = nil, reachLow: Double = 0, reachHigh: Double = 0)
    {
        self.command = command
        self.userDays = ReportNumber.rounded(userDays ?? Double(selections), decimals: ReportNumber.scanDepthDecimals)
        self.reachLow = ReportNumber.rounded(reachLow, decimals: ReportNumber.shareDecimals)
        self.reachHigh = ReportNumber.rounded(reachHigh, decimals: ReportNumber.shareDecimals)
        self.selections = selections
        self.share = ReportNumber.rounded(share, decimals: ReportNumber.shareDecimals)
        self.shareLow = ReportNumber.rounded(shareLow, decimals: ReportNumber.shareDecimals)
        self.shareHigh = ReportNumber.rounded(shareHigh, decimals: ReportNumber.shareDecimals)
        self.users = users
    }
}

extension CommandEvidence {
    /// `used by 20 of 800 people (2.50%, 1.62% – 3.84%)`; without the menu's people, `used by 20 people`.
    func reachSentence(people: Int) -> String {
        guard people > 0 else { return "used by \(ReportNumber.grouped(users)) people" }
        let share = Double(users) / Double(people)
        return "used by \(ReportNumber.grouped(users)) of \(ReportNumber.grouped(people)) people "
            + "(\(ReportNumber.percent(share)), \(ReportNumber.percent(reachLow)) – \(ReportNumber.percent(reachHigh)))"
    }
}
