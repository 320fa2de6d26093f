public import Ranking

/// A command flagged for pruning (invariant 7): the upper Wilson bounds of its share and of its
/// reach are both below their thresholds.
public struct PruneFlag: Hashable, Sendable {
    public var command: String
    public var selections: Double
    public var userDays: Double
    /// selections / the element type's selections.
    public var share: Double
    /// Wilson interval of the share.
    public var interval: WilsonInterval
    /// Distinct people who picked it.
    public var users: Int
    /// Distinct people who used the menu (0: unknown, the share alone decided).
    public var menuUsers: Int
    /// Wilson interval of users / menuUsers; nil when `menuUsers` is 0.
    public var reach: WilsonInterval?

    public init(command: String, selections: Double, userDays: Double? = nil, share: Double, interval: WilsonInterval,
                users: Int, menuUsers: Int = 0, reach: WilsonInterval? = nil)
    {
        self.command = command
        self.selections = selections
        self.userDays = userDays ?? selections
        self.share = share
        self.interval = interval
        self.users = users
        self.menuUsers = menuUsers
        self.reach = reach
    }

    public var shareLow: Double { interval.lower }
    public var shareHigh: Double { interval.upper }
}
