public import Ranking

extension ElementTypeUsage {
    /// The ranking as the recommender's input: effective selections and user-days (raw counts
    /// without decay, on one scale with decay, see `Ranker`) and reach per command.
    public var usageCounts: [String: UsageCount] {
        var out: [String: UsageCount] = [:]
        for usage in commands {
            out[usage.command] = UsageCount(selections: usage.effectiveSelections, users: usage.users,
                                            userDays: usage.effectiveUserDays, people: usage.people)
        }
        return out
    }
}
