public import CivilTime

/// One command's use on one day (a row of the daily rollup).
public struct CommandDay: Hashable, Sendable {
    /// The UTC day (a `CivilDate` is its day number: a row costs what an `Int` day costs).
    public var day: CivilDate
    public var command: String
    public var selections: Int
    /// The day's distinct people who picked the command; an event without a user counts as one
    /// person of its own (DESIGN.md, "How use is measured"). Summed over days these are user-days.
    /// A row that stands for several days (a window's sum) carries their sum.
    public var userDays: Int
    /// The same counts split by person bucket (`PeopleCounts`); unknown for rows rolled up before
    /// buckets existed.
    public var people: PeopleCounts

    /// `userDays` defaults to `selections` (each pick by a different person).
    public init(day: CivilDate, command: String, selections: Int, userDays: Int? = nil, people: PeopleCounts = .unknown) {
        self.day = day
        self.command = command
        self.selections = selections
        self.userDays = userDays ?? selections
        self.people = people
    }
}
