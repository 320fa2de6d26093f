/// The evidence for one command of an element type, as the recommender reads it.
public struct UsageCount: Hashable, Sendable {
    /// Selections in the window: raw counts, or effective counts when the ranking decays
    /// (`CommandUsage.effectiveSelections`). Negative values count as 0.
    public var selections: Double
    /// Distinct users who picked the command (reach), shown with prune flags.
    public var users: Int

    public init(selections: Double, users: Int = 0) {
        self.selections = selections
        self.users = users
    }

    public init(selections: Int, users: Int = 0) {
        self.init(selections: Double(selections), users: users)
    }
}
