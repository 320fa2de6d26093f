/// The use of one element type's menu over a ranking window, with its commands ranked.
public struct ElementTypeUsage: Hashable, Sendable {
    public var elementType: String
    public var window: RankingWindow
    /// Raw selections in the window.
    public var selections: Int
    /// Decayed selections (equal to `selections` without decay).
    public var weightedSelections: Double
    /// Kish's effective sample size of the decayed selections, (sum w)^2 / sum w^2 over events;
    /// equal to `selections` without decay.
    public var effectiveSampleSize: Double
    /// Distinct users over the window.
    public var users: Int
    /// Raw dismissals in the window.
    public var dismissals: Int
    /// Menu opens: selections + dismissals.
    public var opens: Int
    /// dismissals / opens; nil when the menu was never opened.
    public var dismissalRate: Double?
    /// Raw selections in the previous window of equal length.
    public var previousSelections: Int
    public var trend: Trend?
    /// Every command with selections in the window or the previous one, or with users: selections
    /// (weighted) descending, then command id ascending.
    public var commands: [CommandUsage]

    public init(elementType: String, window: RankingWindow, selections: Int, weightedSelections: Double,
                effectiveSampleSize: Double, users: Int, dismissals: Int, opens: Int, dismissalRate: Double?,
                previousSelections: Int, trend: Trend?, commands: [CommandUsage])
    {
        self.elementType = elementType
        self.window = window
        self.selections = selections
        self.weightedSelections = weightedSelections
        self.effectiveSampleSize = effectiveSampleSize
        self.users = users
        self.dismissals = dismissals
        self.opens = opens
        self.dismissalRate = dismissalRate
        self.previousSelections = previousSelections
        self.trend = trend
        self.commands = commands
    }

    /// The usage of one command, if it has any.
    public func command(_ id: String) -> CommandUsage? { commands.first { $0.command == id } }
}
