public import CivilTime

/// What the rollups hold for one element type, the input of `Ranker`.
///
/// Distinct users cannot be summed over days (a person active on two days would count twice), so
/// they come already merged for the window being ranked: the storage layer unions them in SQL.
public struct ElementTypeActivity: Hashable, Sendable {
    public var elementType: String
    /// Selections per command and day; rows outside the current and previous window are ignored,
    /// and several rows for the same command and day add up.
    public var days: [CommandDay]
    /// Dismissals (menus opened and closed without a pick) per day.
    public var dismissals: [CivilDate: Int]
    /// Distinct users per command over the window being ranked.
    public var commandUsers: [String: Int]
    /// Distinct users of the element type over the window being ranked.
    public var users: Int

    public init(elementType: String, days: [CommandDay], dismissals: [CivilDate: Int] = [:],
                commandUsers: [String: Int] = [:], users: Int = 0)
    {
        self.elementType = elementType
        self.days = days
        self.dismissals = dismissals
        self.commandUsers = commandUsers
        self.users = users
    }
}
