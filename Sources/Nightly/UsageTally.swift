public import Ranking

/// The daily usage of events held in memory, for the database-free run
/// (`menurank recommend --manifest FILE --events FILE.jsonl`): the same per-day aggregates the
/// rollups keep (sql/0001, sql/0009), so that the nightly run gives the same documents.
///
/// Per element type, UTC day and command: selections, and that day's distinct people (user-days);
/// per element type and day: dismissals; and the people behind each command and menu, for reach over
/// a window. A person is the event's user, or for an event without one the event itself (so it
/// counts as one person of its own), as the rollups count them. An event seen twice (same id and
/// day) counts once, as storage dedupes it.
///
/// Each day's command counts are also split by person bucket (`CommandDay.people`, sql/0020): the
/// bucket of a person is `PersonBucket.of(user:)` of the user id as the app sent it, or for an
/// event without a user `PersonBucket.of(eventIDHigh:low:)` of its id, which is what ingestion
/// stores and the rollups count, so both runs give the recommender the same evidence.
public struct UsageTally: Sendable {
    /// A person as the tally tells them apart.
    public enum Person: Hashable, Sendable {
        case user(String)
        case event(String)
    }

    private struct CommandKey: Hashable {
        var elementType: String
        var day: Int
        var command: String
    }

    private struct DayKey: Hashable {
        var elementType: String
        var day: Int
    }

    private struct EventKey: Hashable {
        var id: String
        var day: Int
    }

    private var people: [CommandKey: Set<Person>] = [:]
    private var selections: [CommandKey: Int] = [:]
    /// Per command and day, the selections of each person bucket, then the user-days of each.
    private var splits: [CommandKey: [Int]] = [:]
    private var dismissals: [DayKey: Int] = [:]
    private var menuPeople: [DayKey: Set<Person>] = [:]
    private var seen: Set<EventKey> = []

    public init() {}

    /// Events counted (duplicates left out).
    public private(set) var count = 0
    /// Events left out as duplicates of one already counted.
    public private(set) var duplicates = 0

    /// Counts one event: a selection of `command`, or a dismissal when `command` is nil.
    /// - Parameters:
    ///   - id: the event id (its text), which with `day` tells a repeated event.
    ///   - day: the event's UTC day (days since 1970-01-01).
    ///   - user: the client's user id, nil when the event has none.
    public mutating func add(id: String, day: Int, elementType: String, command: String?, user: String?) {
        guard seen.insert(EventKey(id: id, day: day)).inserted else {
            duplicates += 1
            return
        }
        count += 1
        let person: Person = user.map(Person.user) ?? .event(id)
        menuPeople[DayKey(elementType: elementType, day: day), default: []].insert(person)
        guard let command else {
            dismissals[DayKey(elementType: elementType, day: day), default: 0] += 1
            return
        }
        let key = CommandKey(elementType: elementType, day: day, command: command)
        selections[key, default: 0] += 1
        let bucket = Self.bucket(of: person)
        let new = people[key, default: []].insert(person).inserted
        splits[key, default: [Int](repeating: 0, count: 2 * PersonBucket.count)][bucket] += 1
        if new { splits[key]![PersonBucket.count + bucket] += 1 }
    }

    /// A person's bucket, as ingestion computes it. An event id that is not a UUID's text (which
    /// the import refuses, so only a caller of its own) is bucketed by its text as a user id.
    static func bucket(of person: Person) -> Int {
        switch person {
        case .user(let user):
            return PersonBucket.of(user: user)
        case .event(let id):
            guard let (high, low) = uuidHalves(id) else { return PersonBucket.of(user: id) }
            return PersonBucket.of(eventIDHigh: high, low: low)
        }
    }

    /// The two big-endian halves of a UUID's text (32 hex digits, dashes anywhere), nil for other text.
    static func uuidHalves(_ text: String) -> (UInt64, UInt64)? {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            guard digits < 32 else { return nil }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        return digits == 32 ? (high, low) : nil
    }

    /// The daily rows of the window, by element type (what `NightlyRun` resamples).
    public func days(in window: RankingWindow) -> [String: [CommandDay]] {
        var out: [String: [CommandDay]] = [:]
        for (key, count) in selections where window.days.contains(key.day) {
            let split = splits[key] ?? [Int](repeating: 0, count: 2 * PersonBucket.count)
            out[key.elementType, default: []].append(CommandDay(
                day: key.day, command: key.command, selections: count, userDays: people[key]?.count ?? 0,
                people: PeopleCounts(selections: split[..<PersonBucket.count].map(Double.init),
                                     userDays: split[PersonBucket.count...].map(Double.init))))
        }
        return out.mapValues { $0.sorted { ($0.day, $0.command) < ($1.day, $1.command) } }
    }

    /// One activity per element type with use in the window, sorted by element type: the daily
    /// rows, dismissals per day, and distinct people per command and per menu over the window.
    public func activities(in window: RankingWindow) -> [ElementTypeActivity] {
        var activities: [String: ElementTypeActivity] = [:]
        var commandPeople: [String: [String: Set<Person>]] = [:]
        for (elementType, rows) in days(in: window) {
            activities[elementType] = ElementTypeActivity(elementType: elementType, days: rows)
        }
        for (key, persons) in people where window.days.contains(key.day) {
            commandPeople[key.elementType, default: [:]][key.command, default: []].formUnion(persons)
        }
        for (elementType, byCommand) in commandPeople {
            activities[elementType]?.commandUsers = byCommand.mapValues(\.count)
        }
        var menus: [String: Set<Person>] = [:]
        for (key, persons) in menuPeople where window.days.contains(key.day) {
            menus[key.elementType, default: []].formUnion(persons)
        }
        for (elementType, persons) in menus {
            var activity = activities[elementType] ?? ElementTypeActivity(elementType: elementType, days: [])
            activity.users = persons.count
            activities[elementType] = activity
        }
        for (key, count) in dismissals where window.days.contains(key.day) {
            activities[key.elementType]?.dismissals[key.day, default: 0] += count
        }
        return activities.values.sorted { $0.elementType < $1.elementType }
    }
}
