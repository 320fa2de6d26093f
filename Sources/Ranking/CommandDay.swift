/// One command's use on one day (a row of the daily rollup).
///
/// Days are whole UTC days counted from any fixed epoch (the storage layer uses days since
/// 1970-01-01); only differences between days matter here.
public struct CommandDay: Hashable, Sendable {
    public var day: Int
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
    public init(day: Int, command: String, selections: Int, userDays: Int? = nil, people: PeopleCounts = .unknown) {
        self.day = day
        self.command = command
        self.selections = selections
        self.userDays = userDays ?? selections
        self.people = people
    }
}
