public import CivilTime
public import Menus
public import Ranking
public import Reports
import Rollups

/// The nightly store of the database-free run (`menurank recommend --manifest FILE --events
/// FILE.jsonl`), and of tests that need no database: one app's manifest and events held in
/// memory, counted day by day by the rollups' own counting (`Rollups.DayTally`: selections,
/// user-days and the split by person bucket), and its window read as `Storage.RankingQuery` reads
/// the rollups (the window's sums on its last day, or with a half-life day by day), so that the
/// same events give the same documents in both runs. One figure differs: the distinct people of a
/// window (reach) are counted exactly here, where the database unites the days' `hll` sketches (an
/// estimate beyond 160 people; `RecommendWithoutDatabaseTests` bounds the difference).
///
/// A person is the event's user, or for an event without one the event itself (one person of its
/// own). Their bucket (`PersonBucket`) is that of the user id as the app sent it, or for an event
/// without a user that of its id, as ingestion stores it. An event seen twice (same id and day)
/// counts once, as storage dedupes it. All events count as the default rollups count the non-test
/// ones: the caller adds only the events its filter keeps (`SegmentFilter.matches`).
///
/// Proposals filed here are kept in memory (`proposals`): ids from 1, a new one superseding the
/// pending one of its element type, as `proposals` does; nothing outlives the store.
public final class MemoryNightlyStore: NightlyStore {
    /// A person as the store tells them apart.
    enum Person: Hashable {
        case user(String)
        case event(String)
    }

    private struct EventKey: Hashable {
        var id: String
        var day: CivilDate
    }

    /// The people of a day's command (`command` -1: of the menu's dismissals), for reach.
    private struct ReachKey: Hashable {
        var elementTypeID: Int32
        var commandID: Int32
        var day: CivilDate
    }

    /// A proposal filed here.
    public struct Proposal: Sendable, Hashable {
        public var id: Int64
        public var elementType: String
        public var baseVersion: Int
        public var proposed: Layout
        /// `pending`, `superseded` or `rejected`.
        public var status: String
        /// The document as filed (compact JSON, with its id).
        public var evidence: String
    }

    public let manifest: Manifest
    /// Events counted (duplicates left out).
    public private(set) var count = 0
    /// Events left out as duplicates of one already counted.
    public private(set) var duplicates = 0
    /// Every proposal filed here, by id.
    public private(set) var proposals: [Proposal] = []

    private var counters: [CivilDate: DayTally.Counter] = [:]
    private var seen: Set<EventKey> = []
    private var people: [Person: Int64] = [:]
    private var reach: [ReachKey: Set<Int64>] = [:]
    private var elementIDs: [String: Int32] = [:]
    private var commandIDs: [String: Int32] = [:]
    private var elementNames: [String] = []
    private var commandNames: [String] = []

    /// One segment (the events counted) with one menu version: the rows' default reading is then
    /// exactly what was added.
    private static let layout = DayLayout(segments: [DayLayout.Segment(segmentID: 0, isTest: false)],
                                          slots: [DayLayout.Slot(segment: 0, menuVersion: "")])

    /// - Parameter manifest: the app's manifest; its `menus` are the current menus (version 0 each).
    public init(manifest: Manifest) {
        self.manifest = manifest
    }

    /// Counts one event: a selection of `command`, or a dismissal when `command` is nil.
    /// - Parameters:
    ///   - id: the event id (its text), which with `day` tells a repeated event.
    ///   - day: the event's UTC day.
    ///   - user: the client's user id, nil when the event has none.
    public func add(id: String, day: CivilDate, elementType: String, command: String?, user: String?) {
        guard seen.insert(EventKey(id: id, day: day)).inserted else {
            duplicates += 1
            return
        }
        count += 1
        let person: Person = user.map(Person.user) ?? .event(id)
        let number: Int64
        if let known = people[person] {
            number = known
        } else {
            number = Int64(people.count)
            people[person] = number
        }
        let event = DayEvent(elementTypeID: Self.id(of: elementType, in: &elementIDs, names: &elementNames),
                             commandID: command.map { Self.id(of: $0, in: &commandIDs, names: &commandNames) },
                             person: number, slot: 0, personBucket: Self.bucket(of: person))
        counters[day, default: DayTally.Counter()].add(event, segment: 0)
        reach[ReachKey(elementTypeID: event.elementTypeID, commandID: event.commandID ?? -1, day: day), default: []]
            .insert(number)
    }

    private static func id(of name: String, in ids: inout [String: Int32], names: inout [String]) -> Int32 {
        if let id = ids[name] { return id }
        let id = Int32(names.count)
        ids[name] = id
        names.append(name)
        return id
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

    // MARK: NightlyStore

    /// The manifest's app (whatever `name` asks: the store holds one app).
    public func apps(named name: String?) throws -> [NightlyApp] {
        [NightlyApp(id: 0, name: manifest.app)]
    }

    public func open(_ app: NightlyApp, window: RankingWindow, filter: SegmentFilter) throws -> NightlyInput? {
        NightlyInput(manifest: manifest, baseVersions: manifest.menus.mapValues { _ in 0 },
                     activities: activities(in: window))
    }

    public func onFile(_ drafts: [NightlyDraft], of app: NightlyApp) throws -> [String: NightlyMatch] {
        var out: [String: NightlyMatch] = [:]
        for draft in drafts {
            let matching = proposals.filter {
                $0.elementType == draft.elementType && $0.baseVersion == draft.baseVersion && $0.proposed == draft.proposed
            }
            if let pending = matching.last(where: { $0.status == "pending" }) {
                out[draft.elementType] = NightlyMatch(filing: .alreadyPending(id: pending.id), stabilities: [:])
            } else if let rejected = matching.last(where: { $0.status == "rejected" }) {
                out[draft.elementType] = NightlyMatch(filing: .alreadyRejected(id: rejected.id), stabilities: [:])
            }
        }
        return out
    }

    public func close(_ app: NightlyApp) throws -> NightlyRollup {
        NightlyRollup(days: counters.keys.sorted())
    }

    public func file(_ drafts: [NightlyDraft], documents: [ProposalDocument], of app: NightlyApp) throws
        -> [(filing: ProposalFiling, evidence: String?)]
    {
        let matches = try onFile(drafts, of: app)
        return zip(drafts, documents).map { draft, document in
            if let match = matches[draft.elementType] { return (match.filing, nil) }
            let id = Int64(proposals.count + 1)
            var superseded: [Int64] = []
            for index in proposals.indices where proposals[index].elementType == draft.elementType
                && proposals[index].status == "pending"
            {
                proposals[index].status = "superseded"
                superseded.append(proposals[index].id)
            }
            var filed = document
            filed.proposalID = Int(id)
            let text = filed.jsonText()
            proposals.append(Proposal(id: id, elementType: draft.elementType, baseVersion: draft.baseVersion,
                                      proposed: draft.proposed, status: "pending", evidence: text))
            return (.filed(id: id, superseded: superseded), text)
        }
    }

    /// Marks proposal `id` rejected (as a reviewer would), so that the next night files it no more.
    public func reject(id: Int64) {
        if let index = proposals.firstIndex(where: { $0.id == id }) { proposals[index].status = "rejected" }
    }

    // MARK: The window

    /// The day rows of the window's days, by day.
    func dayRows(in window: RankingWindow) -> [CivilDate: DayRows] {
        var out: [CivilDate: DayRows] = [:]
        for (day, counter) in counters where window.days.contains(day) {
            out[day] = counter.rows(layout: Self.layout)
        }
        return out
    }

    /// One activity per element type with use in the window, sorted by element type, as
    /// `RankingQuery` reads the rollups of the window: per command the window's selections,
    /// user-days and split by person bucket as one row on its last day (with a half-life, one row
    /// per day, each weighed on its own) and its distinct people; per element type its dismissals
    /// (on the last day) and distinct people.
    public func activities(in window: RankingWindow) -> [ElementTypeActivity] {
        struct CommandTotal {
            var selections = 0
            var userDays = 0
            var people = PeopleCounts.zero
        }
        var commandPeople: [Int64: Set<Int64>] = [:]
        var elementPeople: [Int32: Set<Int64>] = [:]
        for (key, persons) in reach where window.days.contains(key.day) {
            elementPeople[key.elementTypeID, default: []].formUnion(persons)
            if key.commandID >= 0 {
                commandPeople[Int64(key.elementTypeID) << 32 | Int64(UInt32(bitPattern: key.commandID)), default: []]
                    .formUnion(persons)
            }
        }
        var commands: [Int64: CommandTotal] = [:]
        var dismissals: [Int32: Int] = [:]
        var activities: [Int32: ElementTypeActivity] = [:]
        func activity(_ id: Int32) -> ElementTypeActivity {
            activities[id] ?? ElementTypeActivity(elementType: elementNames[Int(id)], days: [])
        }
        let rows = dayRows(in: window)
        for day in rows.keys.sorted() {
            let dayRows = rows[day]!
            for row in dayRows.commands {
                let key = Int64(row.elementTypeID) << 32 | Int64(UInt32(bitPattern: row.commandID))
                let people = PeopleCounts(encoded: row.people) ?? .unknown
                var total = commands[key, default: CommandTotal()]
                total.selections += Int(row.selections)
                total.userDays += Int(row.userDays)
                total.people.add(people)
                commands[key] = total
                if window.halfLife != nil {
                    var entry = activity(row.elementTypeID)
                    entry.days.append(CommandDay(day: day, command: commandNames[Int(row.commandID)],
                                                 selections: Int(row.selections), userDays: Int(row.userDays), people: people))
                    activities[row.elementTypeID] = entry
                }
            }
            for row in dayRows.elements { dismissals[row.elementTypeID, default: 0] += Int(row.dismissals) }
        }
        for (key, total) in commands {
            let elementID = Int32(key >> 32)
            let command = commandNames[Int(Int32(truncatingIfNeeded: key))]
            var entry = activity(elementID)
            if window.halfLife == nil, total.selections > 0 {
                entry.days.append(CommandDay(day: window.asOf, command: command, selections: total.selections,
                                             userDays: total.userDays, people: total.people))
            }
            let users = commandPeople[key]?.count ?? 0
            if users > 0 { entry.commandUsers[command] = users }
            activities[elementID] = entry
        }
        for (elementID, persons) in elementPeople {
            var entry = activity(elementID)
            if let count = dismissals[elementID], count > 0 { entry.dismissals[window.asOf] = count }
            entry.users = persons.count
            activities[elementID] = entry
        }
        return activities.values.map { entry in
            var sorted = entry
            sorted.days.sort { ($0.day, $0.command) < ($1.day, $1.command) }
            return sorted
        }.sorted { $0.elementType < $1.elementType }
    }
}
