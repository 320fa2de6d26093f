public import Ranking

extension ElementTypeUsage {
    /// The ranking as the recommender's input: effective selections (raw counts without decay)
    /// and reach per command.
    public var usageCounts: [String: UsageCount] {
        var out: [String: UsageCount] = [:]
        for usage in commands {
            out[usage.command] = UsageCount(selections: usage.effectiveSelections, users: usage.users)
        }
        return out
    }
}
