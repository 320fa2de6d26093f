/// The use of one command on one element type over a ranking window.
public struct CommandUsage: Hashable, Sendable {
    public var command: String
    /// Raw selections in the window.
    public var selections: Int
    /// Selections weighted by the window's decay (equal to `selections` without decay).
    public var weightedSelections: Double
    /// The weighted selections rescaled to the element type's effective sample size, so that
    /// `effectiveSelections / ElementTypeUsage.effectiveSampleSize == share`. These are the counts
    /// statistical tests (Wilson intervals, the recommender's gates) use; without decay they equal
    /// `selections`.
    public var effectiveSelections: Double
    /// Share of the element type's (weighted) selections.
    public var share: Double
    /// Wilson interval of the share (effective counts, the ranker's confidence).
    public var shareInterval: WilsonInterval
    /// Distinct users who picked the command in the window (reach).
    public var users: Int
    /// User-days in the window: per day, the distinct people who picked the command, summed.
    public var userDays: Int
    /// User-days weighted by the window's decay (equal to `userDays` without decay).
    public var weightedUserDays: Double
    /// The weighted user-days on the scale of `effectiveSelections` (scaled by the same factor), so
    /// that comparisons between commands in user-days use counts of the same size as selections;
    /// without decay equal to `userDays`.
    public var effectiveUserDays: Double
    /// The window's selections and user-days split by person bucket, weighted and scaled exactly as
    /// `effectiveSelections` and `effectiveUserDays` (unknown when a day of the window has no split).
    public var people: PeopleCounts
    /// `users` out of the people who used the element type's menu in the window, with its Wilson
    /// interval (the ranker's confidence); the whole of [0, 1] when that number is unknown (0).
    public var reach: WilsonInterval
    /// Raw selections in the previous window of equal length.
    public var previousSelections: Int
    /// Against the previous window; nil when that window has no selections.
    public var trend: Trend?

    public init(command: String, selections: Int, weightedSelections: Double, effectiveSelections: Double,
                share: Double, shareInterval: WilsonInterval, users: Int, userDays: Int = 0,
                weightedUserDays: Double = 0, effectiveUserDays: Double = 0,
                reach: WilsonInterval = WilsonInterval(estimate: 0, lower: 0, upper: 1), previousSelections: Int,
                trend: Trend?, people: PeopleCounts = .unknown)
    {
        self.people = people
        self.command = command
        self.selections = selections
        self.weightedSelections = weightedSelections
        self.effectiveSelections = effectiveSelections
        self.share = share
        self.shareInterval = shareInterval
        self.users = users
        self.userDays = userDays
        self.weightedUserDays = weightedUserDays
        self.effectiveUserDays = effectiveUserDays
        self.reach = reach
        self.previousSelections = previousSelections
        self.trend = trend
    }
}
