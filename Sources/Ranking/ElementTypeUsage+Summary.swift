extension ElementTypeUsage {
    /// The use of an element type without its commands, from its totals: the figures `Ranker.rank`
    /// gives the element type itself for a window without decay (opens, dismissal rate, trend), for
    /// an overview that lists many element types and ranks none of them.
    public init(summaryOf elementType: String, window: RankingWindow, selections: Int, previousSelections: Int,
                dismissals: Int, users: Int)
    {
        let opens = selections + dismissals
        self.init(elementType: elementType, window: window, selections: selections, weightedSelections: Double(selections),
                  effectiveSampleSize: Double(selections), users: users, dismissals: dismissals, opens: opens,
                  dismissalRate: opens > 0 ? Double(dismissals) / Double(opens) : nil,
                  previousSelections: previousSelections,
                  trend: Trend.between(previous: previousSelections, current: selections), commands: [])
    }
}
