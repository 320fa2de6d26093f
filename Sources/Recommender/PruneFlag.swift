public import Ranking

/// A command flagged for pruning: the upper Wilson bound of its share is below the threshold.
public struct PruneFlag: Hashable, Sendable {
    public var command: String
    public var selections: Double
    /// selections / the element type's selections.
    public var share: Double
    /// Wilson interval of the share.
    public var interval: WilsonInterval
    /// Distinct users who picked it.
    public var users: Int

    public init(command: String, selections: Double, share: Double, interval: WilsonInterval, users: Int) {
        self.command = command
        self.selections = selections
        self.share = share
        self.interval = interval
        self.users = users
    }

    public var shareLow: Double { interval.lower }
    public var shareHigh: Double { interval.upper }
}
