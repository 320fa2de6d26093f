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

    public init(command: String, selections: Int, share: Double, shareLow: Double, shareHigh: Double, users: Int) {
        self.command = command
        self.selections = selections
        self.share = ReportNumber.rounded(share, decimals: ReportNumber.shareDecimals)
        self.shareLow = ReportNumber.rounded(shareLow, decimals: ReportNumber.shareDecimals)
        self.shareHigh = ReportNumber.rounded(shareHigh, decimals: ReportNumber.shareDecimals)
        self.users = users
    }
}
