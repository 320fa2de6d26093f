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
    /// Raw selections in the previous window of equal length.
    public var previousSelections: Int
    /// Against the previous window; nil when that window has no selections.
    public var trend: Trend?

    public init(command: String, selections: Int, weightedSelections: Double, effectiveSelections: Double,
                share: Double, shareInterval: WilsonInterval, users: Int, previousSelections: Int, trend: Trend?)
    {
        self.command = command
        self.selections = selections
        self.weightedSelections = weightedSelections
        self.effectiveSelections = effectiveSelections
        self.share = share
        self.shareInterval = shareInterval
        self.users = users
        self.previousSelections = previousSelections
        self.trend = trend
    }
}
