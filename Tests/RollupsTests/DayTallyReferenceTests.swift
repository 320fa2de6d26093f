import Outcomes
import Ranking
@testable import Rollups
import Sketches
import Testing

/// `DayTally` against a reference written straight from its definitions (dictionaries of sets, no
/// records, no sorting, no compaction), on generated days: many segments (test ones among them),
/// several slots of one segment and menu version, dismissals, people shared across segments and
/// commands, positions and latencies missing, negative or extreme, ids at their extremes, person
/// buckets derived from the person or stored (some people in two buckets, as on the day buckets
/// began to be stored). Each day
/// is counted with the default chunk, with chunks so small that every few events are folded, in
/// parts merged with events still pending, in every order, and its rows computed in shares of the
/// element types and joined.
@Suite struct DayTallyReferenceTests {
    typealias Generator = EventRecordsTests.Generator

    static func layout(segments: Int, generator: inout Generator) -> DayLayout {
        // Non-test segments first, as RollupSegments ranks them, then test ones.
        let tests = segments / 3
        let list = (0..<segments).map { DayLayout.Segment(segmentID: Int32(100 + $0 * 7), isTest: $0 >= segments - tests) }
        var slots: [DayLayout.Slot] = []
        for segment in 0..<segments {
            for version in ["", "1", "1+2"] where version.isEmpty || generator.next() % 2 == 0 {
                slots.append(DayLayout.Slot(segment: segment, menuVersion: version))
            }
        }
        // Another context with a slot already listed (a second slot of the same segment and version).
        slots.append(slots[Int(generator.next() % UInt64(slots.count))])
        return DayLayout(segments: list, slots: slots)
    }

    static func day(seed: UInt64, events count: Int, segments: Int) -> ([DayEvent], DayLayout) {
        var generator = Generator(state: seed)
        let layout = layout(segments: segments, generator: &generator)
        let elements: [Int32] = [Int32.min, -3, 0, 1, 2, 17, 999, Int32.max]
        let commands: [Int32?] = [nil, Int32.min, -1, 0, 1, 2, 3, 4, 12, Int32.max]
        var events: [DayEvent] = []
        for index in 0..<count {
            let element = generator.next() % 4 == 0 ? generator.pick(elements) : Int32(generator.next() % 40)
            let command: Int32? = generator.next() % 11 == 0 ? nil : generator.pick(commands)
            // People: a few heavy ones, many occasional ones, extreme values, and people of their own
            // (as events without a user get, from their event id).
            let person: Int64 = switch generator.next() % 6 {
            case 0: Int64(generator.next() % 5)
            case 1: generator.pick([Int64.min, -1, Int64.max])
            case 2: Int64(bitPattern: generator.next())
            default: Int64(generator.next() % 3_000) * 7_919
            }
            let position: Int16? = switch generator.next() % 7 {
            case 0: nil
            case 1: generator.pick([Int16.min, -1, Int16.max, 1_500])
            default: Int16(generator.next() % 12)
            }
            let latency: Int32? = switch generator.next() % 8 {
            case 0: nil
            case 1: generator.pick([Int32.min, -5, 0, 63, 64, Int32.max])
            default: Int32(generator.next() % 40_000)
            }
            // Mostly the bucket of the person, as ingestion stores it; some events of the same person
            // in another bucket.
            let bucket: Int? = generator.next() % 9 == 0 ? Int(generator.next() % 64) : nil
            events.append(DayEvent(elementTypeID: element, commandID: command, person: person,
                                   slot: Int32(generator.next() % UInt64(layout.slots.count)), position: position, latencyMS: latency,
                                   personBucket: bucket))
            if index % 97 == 0, let last = events.last { events.append(last) }   // the very same event again
        }
        return (events, layout)
    }

    static func sketch(_ people: Set<Int64>) -> HLLSketch { HLLSketch(hashes: people.map { MurmurHash3.hash($0) }) }

    /// The rows from the definitions (see `DayTally`).
    static func reference(_ events: [DayEvent], layout: DayLayout) -> DayRows {
        struct CommandKey: Hashable, Comparable {
            var element: Int32
            var command: Int32
            static func < (a: Self, b: Self) -> Bool { (a.element, a.command) < (b.element, b.command) }
        }
        var selections: [CommandKey: [Int: Int64]] = [:]        // per segment
        var people: [CommandKey: [Int: Set<Int64>]] = [:]
        struct Pair: Hashable { var person: Int64; var bucket: Int }
        var picks: [CommandKey: [Int: [Int64]]] = [:]           // per segment, per person bucket
        var pairs: [CommandKey: [Int: Set<Pair>]] = [:]
        var elementSelections: [Int32: [Int: Int64]] = [:]
        var elementDismissals: [Int32: [Int: Int64]] = [:]
        var elementPeople: [Int32: [Int: Set<Int64>]] = [:]
        struct OutcomeKey: Hashable { var segment: Int; var version: String; var element: Int32 }
        var opens: [OutcomeKey: Int64] = [:]
        var dismissals: [OutcomeKey: Int64] = [:]
        var positions: [OutcomeKey: [Int32: Int64]] = [:]
        var buckets: [OutcomeKey: [Int32: Int64]] = [:]
        for event in events {
            let slot = layout.slots[Int(event.slot)]
            let segment = slot.segment
            let outcome = OutcomeKey(segment: segment, version: slot.menuVersion, element: event.elementTypeID)
            opens[outcome, default: 0] += 1
            elementPeople[event.elementTypeID, default: [:]][segment, default: []].insert(event.person)
            guard let command = event.commandID else {
                dismissals[outcome, default: 0] += 1
                elementDismissals[event.elementTypeID, default: [:]][segment, default: 0] += 1
                continue
            }
            let key = CommandKey(element: event.elementTypeID, command: command)
            selections[key, default: [:]][segment, default: 0] += 1
            people[key, default: [:]][segment, default: []].insert(event.person)
            picks[key, default: [:]][segment, default: [Int64](repeating: 0, count: 64)][event.personBucket] += 1
            pairs[key, default: [:]][segment, default: []].insert(Pair(person: event.person, bucket: event.personBucket))
            elementSelections[event.elementTypeID, default: [:]][segment, default: 0] += 1
            if let position = event.position { positions[outcome, default: [:]][Int32(position), default: 0] += 1 }
            if let latency = event.latencyMS {
                buckets[outcome, default: [:]][Int32(LatencyHistogram.bucket(of: Int(latency))), default: 0] += 1
            }
        }
        var rows = DayRows()
        for key in selections.keys.sorted() {
            let bySegment = people[key]!
            var firstSegment: [Int64: Int] = [:]
            for (segment, members) in bySegment {
                for person in members { firstSegment[person] = min(firstSegment[person] ?? .max, segment) }
            }
            var firstPairSegment: [Pair: Int] = [:]
            for (segment, members) in pairs[key]! {
                for pair in members { firstPairSegment[pair] = min(firstPairSegment[pair] ?? .max, segment) }
            }
            var defaultRow: DayRows.Command?
            var defaultPicks = [Int64](repeating: 0, count: 64)
            var defaultSplit = [Int64](repeating: 0, count: 64)
            for segment in bySegment.keys.sorted() {
                let info = layout.segments[segment]
                let userDays = Int64(bySegment[segment]!.filter { firstSegment[$0] == segment }.count)
                let count = selections[key]![segment]!
                var split = [Int64](repeating: 0, count: 64)
                for pair in pairs[key]![segment]! where firstPairSegment[pair] == segment { split[pair.bucket] += 1 }
                let bucketPicks = picks[key]![segment]!
                rows.segmentCommands.append(DayRows.Command(segmentID: info.segmentID, elementTypeID: key.element, commandID: key.command,
                                                            selections: count, userDays: userDays, users: sketch(bySegment[segment]!),
                                                            people: PeopleCounts.encode(selections: bucketPicks, userDays: split)))
                guard !info.isTest else { continue }
                var row = defaultRow ?? DayRows.Command(segmentID: nil, elementTypeID: key.element, commandID: key.command,
                                                        selections: 0, userDays: 0, users: .empty)
                row.selections += count
                row.userDays += userDays
                for bucket in 0..<64 {
                    defaultPicks[bucket] += bucketPicks[bucket]
                    defaultSplit[bucket] += split[bucket]
                }
                row.people = PeopleCounts.encode(selections: defaultPicks, userDays: defaultSplit)
                defaultRow = row
            }
            if var row = defaultRow {
                row.users = sketch(bySegment.filter { !layout.segments[$0.key].isTest }.values.reduce(into: Set()) { $0.formUnion($1) })
                rows.commands.append(row)
            }
        }
        for element in elementPeople.keys.sorted() {
            let bySegment = elementPeople[element]!
            var defaultRow: DayRows.Element?
            var defaultPeople = Set<Int64>()
            for segment in bySegment.keys.sorted() {
                let info = layout.segments[segment]
                let picked = elementSelections[element]?[segment] ?? 0
                let dismissed = elementDismissals[element]?[segment] ?? 0
                rows.segmentElements.append(DayRows.Element(segmentID: info.segmentID, elementTypeID: element, selections: picked,
                                                            dismissals: dismissed, users: sketch(bySegment[segment]!)))
                guard !info.isTest else { continue }
                var row = defaultRow ?? DayRows.Element(segmentID: nil, elementTypeID: element, selections: 0, dismissals: 0, users: .empty)
                row.selections += picked
                row.dismissals += dismissed
                defaultRow = row
                defaultPeople.formUnion(bySegment[segment]!)
            }
            if var row = defaultRow {
                row.users = sketch(defaultPeople)
                rows.elements.append(row)
            }
        }
        rows.outcomes = opens.keys.map { key in
            let histogram = positions[key, default: [:]].sorted { $0.key < $1.key }
            let latency = buckets[key, default: [:]].sorted { $0.key < $1.key }
            return DayRows.Outcome(segmentID: layout.segments[key.segment].segmentID, elementTypeID: key.element,
                                   menuVersion: key.version, opens: opens[key]!, dismissals: dismissals[key, default: 0],
                                   positions: histogram.map(\.key), positionCounts: histogram.map(\.value),
                                   latencyBuckets: latency.map(\.key), latencyCounts: latency.map(\.value))
        }
        .sorted { ($0.segmentID, $0.elementTypeID, $0.menuVersion) < ($1.segmentID, $1.elementTypeID, $1.menuVersion) }
        return rows
    }

    static func segment(of event: DayEvent, _ layout: DayLayout) -> Int { layout.slots[Int(event.slot)].segment }

    /// Expects equal rows, naming the first row that differs in each table (the whole rows of a
    /// day are too long to read in a failure).
    static func expectSame(_ actual: DayRows, _ expected: DayRows, _ note: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        func first<T: Equatable>(_ table: String, _ a: [T], _ b: [T]) {
            if a.count != b.count { Issue.record("\(note): \(table): \(a.count) rows, expected \(b.count)", sourceLocation: sourceLocation) }
            if let at = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) {
                Issue.record("\(note): \(table) row \(at): \(a[at])\n expected \(b[at])", sourceLocation: sourceLocation)
            }
        }
        first("segmentCommands", actual.segmentCommands, expected.segmentCommands)
        first("commands", actual.commands, expected.commands)
        first("segmentElements", actual.segmentElements, expected.segmentElements)
        first("elements", actual.elements, expected.elements)
        first("outcomes", actual.outcomes, expected.outcomes)
    }

    @Test(arguments: [(1, 2_000, 1), (2, 6_000, 3), (3, 20_000, 7), (4, 5_000, 14), (5, 1, 2)])
    func countsAsTheDefinitionsSay(seed: Int, events count: Int, segments: Int) {
        let (events, layout) = Self.day(seed: UInt64(seed), events: count, segments: segments)
        let expected = Self.reference(events, layout: layout)
        Self.expectSame(DayTally.count(events, layout: layout), expected, "count")

        for chunk in [1, 7, 1_000] {
            var counter = DayTally.Counter(chunkSize: chunk)
            for event in events { counter.add(event, segment: Self.segment(of: event, layout)) }
            Self.expectSame(counter.rows(layout: layout), expected, "chunk \(chunk)")
            counter.flush()
            Self.expectSame(counter.rows(layout: layout), expected, "chunk \(chunk), flushed")
        }

        // In shares of the element types, joined (as `RollupDay` computes a big day's rows on threads).
        var whole = DayTally.Counter()
        for event in events { whole.add(event, segment: Self.segment(of: event, layout)) }
        whole.flush()
        for shares in [2, 3, 5] {
            let parts = (0..<shares).map { whole.rows(layout: layout, share: $0, of: shares) }
            Self.expectSame(DayRows(joining: parts), expected, "\(shares) shares")
        }

        // In three parts, with chunks of their own, some events left pending, merged in each order.
        for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
            var parts = [DayTally.Counter(chunkSize: 5), DayTally.Counter(chunkSize: 1 << 20), DayTally.Counter(chunkSize: 64)]
            for (index, event) in events.enumerated() { parts[(index * 31 + index / 3) % 3].add(event, segment: Self.segment(of: event, layout)) }
            parts[2].flush()
            var merged = parts[order[0]]
            merged.merge(parts[order[1]])
            merged.merge(parts[order[2]])
            Self.expectSame(merged.rows(layout: layout), expected, "order \(order)")
        }
    }

    @Test func aGroupWithManyRepeatsIsCompactedAsItIsFolded() {
        let layout = DayLayout(segments: [.init(segmentID: 1, isTest: false)], slots: [.init(segment: 0, menuVersion: "")])
        let events = (0..<30_000).map { DayEvent(elementTypeID: 9, commandID: 1, person: Int64($0 % 200), slot: 0, position: 0, latencyMS: 10) }
        var counter = DayTally.Counter(chunkSize: 1_000)
        for event in events { counter.add(event, segment: 0) }
        Self.expectSame(counter.rows(layout: layout), Self.reference(events, layout: layout), "repeats")
    }
}
