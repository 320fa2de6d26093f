public import Ranking

/// The evidence for one command of an element type, as the recommender reads it
/// (DESIGN.md, "How use is measured").
public struct UsageCount: Hashable, Sendable {
    /// Selections in the window: raw counts, or effective counts when the ranking decays
    /// (`CommandUsage.effectiveSelections`). Negative values count as 0.
    public var selections: Double
    /// User-days: for each day of the window, the distinct people who picked the command that day,
    /// summed over the window (decayed like selections when the ranking decays). One person adds at
    /// most one a day, so a heavy user cannot lift a command above what many people use. Negative
    /// values count as 0.
    public var userDays: Double
    /// Distinct people who picked the command in the window (reach, out of the menu's people).
    public var users: Int
    /// `selections` and `userDays` split by person bucket, on their scale: what the stability gate
    /// and the stability figure resample (DESIGN.md, "People are the unit of evidence"). Unknown:
    /// the gate treats the counts as independent draws.
    public var people: PeopleCounts

    /// `userDays` defaults to `selections` (each pick by a different person on a different day).
    public init(selections: Double, users: Int = 0, userDays: Double? = nil, people: PeopleCounts = .unknown) {
        self.selections = selections
        self.users = users
        self.userDays = userDays ?? selections
        self.people = people
    }

    public init(selections: Int, users: Int = 0, userDays: Double? = nil, people: PeopleCounts = .unknown) {
        self.init(selections: Double(selections), users: users, userDays: userDays, people: people)
    }

    /// The count that orders commands under `weight`.
    public func weighted(_ weight: UsageWeight) -> Double {
        switch weight {
        case .userDays: userDays
        case .selections: selections
        }
    }

    /// The split of the count that orders commands under `weight` (empty when unknown).
    public func weightedPeople(_ weight: UsageWeight) -> [Double] {
        switch weight {
        case .userDays: people.userDays
        case .selections: people.selections
        }
    }
}

/// What ordering, the stability gate and "used at least as much as" compare.
public enum UsageWeight: String, Hashable, Sendable, CaseIterable {
    /// Distinct people a day, summed over the window (the default: robust to heavy users).
    case userDays = "user-days"
    /// Raw picks.
    case selections
}
