import Ranking
import Rollups
import Sketches
import Testing

/// `DayTally` on hand-made days: user-days attributed to each person's first segment (non-test
/// before test), default rows over the non-test segments only, dismissals, sketches of the right
/// sets, the outcome histograms per segment and menu version, and the split by person bucket.
@Suite struct DayTallyTests {
    // Segments in attribution order: two non-test, then a test segment.
    static let layout = DayLayout(
        segments: [.init(segmentID: 10, isTest: false), .init(segmentID: 11, isTest: false), .init(segmentID: 12, isTest: true)],
        slots: [.init(segment: 0, menuVersion: ""), .init(segment: 1, menuVersion: "v1"), .init(segment: 2, menuVersion: ""),
                .init(segment: 0, menuVersion: "")])   // slot 3: the same as slot 0 (another context)

    static func sketch(_ people: [Int64]) -> HLLSketch { HLLSketch(hashes: people.map { MurmurHash3.hash($0) }) }

    static let events: [DayEvent] = [
        // Command 5: person 1 in segments 10 and 11, 2 in 11, 3 in the test segment and 10, 4 only testing.
        DayEvent(elementTypeID: 1, commandID: 5, person: 1, slot: 1, position: 2, latencyMS: 300),
        DayEvent(elementTypeID: 1, commandID: 5, person: 1, slot: 0, position: 2, latencyMS: 70),
        DayEvent(elementTypeID: 1, commandID: 5, person: 2, slot: 1, position: 0),
        DayEvent(elementTypeID: 1, commandID: 5, person: 3, slot: 2, latencyMS: 5),
        DayEvent(elementTypeID: 1, commandID: 5, person: 3, slot: 3, position: 2, latencyMS: 5),
        DayEvent(elementTypeID: 1, commandID: 5, person: 4, slot: 2),
        // Command 6: one segment only, person 1 twice.
        DayEvent(elementTypeID: 1, commandID: 6, person: 1, slot: 0, position: 1, latencyMS: 64),
        DayEvent(elementTypeID: 1, commandID: 6, person: 1, slot: 3, position: 1, latencyMS: -3),
        // Dismissals: person 5 in segment 10 (position and latency of a dismissal are not counted), 6 testing.
        DayEvent(elementTypeID: 1, commandID: nil, person: 5, slot: 0, position: 4, latencyMS: 900),
        DayEvent(elementTypeID: 1, commandID: nil, person: 6, slot: 2),
        // Element type 2: only test events.
        DayEvent(elementTypeID: 2, commandID: 7, person: 7, slot: 2),
    ]

    @Test func commandsPerSegmentAndByDefault() {
        let rows = DayTally.count(Self.events, layout: Self.layout)
        let segment = rows.segmentCommands.map { "\($0.segmentID!) \($0.elementTypeID)/\($0.commandID) \($0.selections) \($0.userDays)" }
        #expect(segment == ["10 1/5 2 2", "11 1/5 2 1", "12 1/5 2 1", "10 1/6 2 1", "12 2/7 1 1"])
        #expect(rows.segmentCommands[0].users == Self.sketch([1, 3]))
        #expect(rows.segmentCommands[2].users == Self.sketch([3, 4]))
        let standard = rows.commands.map { "\($0.segmentID == nil) \($0.elementTypeID)/\($0.commandID) \($0.selections) \($0.userDays)" }
        #expect(standard == ["true 1/5 4 3", "true 1/6 2 1"])
        #expect(rows.commands[0].users == Self.sketch([1, 2, 3]))
        #expect(rows.commands[1].users == Self.sketch([1]))
    }

    @Test func elementsPerSegmentAndByDefault() {
        let rows = DayTally.count(Self.events, layout: Self.layout)
        let segment = rows.segmentElements.map { "\($0.segmentID!) \($0.elementTypeID) \($0.selections) \($0.dismissals)" }
        #expect(segment == ["10 1 4 1", "11 1 2 0", "12 1 2 1", "12 2 1 0"])
        #expect(rows.segmentElements[0].users == Self.sketch([1, 3, 5]))
        #expect(rows.segmentElements[2].users == Self.sketch([3, 4, 6]))
        #expect(rows.elements.map { "\($0.segmentID == nil) \($0.elementTypeID) \($0.selections) \($0.dismissals)" } == ["true 1 6 1"])
        #expect(rows.elements[0].users == Self.sketch([1, 2, 3, 5]))
    }

    /// Latency buckets (`LatencyHistogram`): one per ms below 64, then 32 per doubling, so 70 ms
    /// is bucket 68 (69 <= 70 < 71) and 300 ms bucket 135 (297 <= 300 < 304); -3 ms counts as 0.
    @Test func outcomesPerSegmentAndMenuVersion() {
        let rows = DayTally.count(Self.events, layout: Self.layout)
        let outcomes = rows.outcomes.map {
            "\($0.segmentID) \($0.elementTypeID) '\($0.menuVersion)' \($0.opens) \($0.dismissals) \($0.positions)x\($0.positionCounts) "
                + "\($0.latencyBuckets)x\($0.latencyCounts)"
        }
        #expect(outcomes == [
            "10 1 '' 5 1 [1, 2]x[2, 2] [0, 5, 64, 68]x[1, 1, 1, 1]",
            "11 1 'v1' 2 0 [0, 2]x[1, 1] [135]x[1]",
            "12 1 '' 3 1 []x[] [5]x[1]",
            "12 2 '' 1 0 []x[] []x[]",
        ])
    }

    /// Per bucket the selections of its events and its user-days, attributed like user-days: a
    /// (person, bucket) pair counts in its first segment. Person 1 is in bucket 3; person 2 in 5;
    /// person 8's events came partly before buckets were stored (bucket from the pseudonym) and
    /// partly with their own bucket 5, so 8 counts in two buckets.
    @Test func commandRowsSplitByPersonBucket() throws {
        let derived = PersonBucket.of(pseudonym: 8)
        try #require(derived != 5 && derived != 3)
        let events = [
            DayEvent(elementTypeID: 1, commandID: 5, person: 1, slot: 0, personBucket: 3),
            DayEvent(elementTypeID: 1, commandID: 5, person: 1, slot: 0, personBucket: 3),
            DayEvent(elementTypeID: 1, commandID: 5, person: 1, slot: 1, personBucket: 3),
            DayEvent(elementTypeID: 1, commandID: 5, person: 2, slot: 1, personBucket: 5),
            DayEvent(elementTypeID: 1, commandID: 5, person: 8, slot: 1),
            DayEvent(elementTypeID: 1, commandID: 5, person: 8, slot: 1, personBucket: 5),
            DayEvent(elementTypeID: 1, commandID: 5, person: 2, slot: 2, personBucket: 5),
            DayEvent(elementTypeID: 1, commandID: nil, person: 9, slot: 0, personBucket: 7),
        ]
        let rows = DayTally.count(events, layout: Self.layout)
        func split(_ bytes: [UInt8]) throws -> [Int: [Double]] {
            let counts = try #require(PeopleCounts(encoded: bytes))
            var out: [Int: [Double]] = [:]
            for bucket in 0..<PersonBucket.count where counts.selections[bucket] > 0 || counts.userDays[bucket] > 0 {
                out[bucket] = [counts.selections[bucket], counts.userDays[bucket]]
            }
            return out
        }
        try #require(rows.segmentCommands.count == 3 && rows.commands.count == 1)
        #expect(try split(rows.segmentCommands[0].people) == [3: [2, 1]])
        #expect(try split(rows.segmentCommands[1].people) == [3: [1, 0], 5: [2, 2], derived: [1, 1]])
        #expect(try split(rows.segmentCommands[2].people) == [5: [1, 0]])
        // The default row: the non-test segments (10 and 11); its user-days (3 people) split over
        // four pairs, because person 8 is in two buckets.
        #expect(rows.commands[0].userDays == 3)
        #expect(try split(rows.commands[0].people) == [3: [3, 1], 5: [2, 2], derived: [1, 1]])
    }

    @Test func aDayWithoutEventsHasNoRows() {
        #expect(DayTally.count([], layout: Self.layout) == DayRows())
    }

    /// Many people in one segment and a few in another: sketches past the explicit list, and
    /// user-days that add up to the distinct people.
    @Test func largeGroupsAddUp() {
        var events: [DayEvent] = []
        for person in 0..<5_000 { events.append(DayEvent(elementTypeID: 3, commandID: 9, person: Int64(person * 7919), slot: 0)) }
        for person in 4_990..<5_010 { events.append(DayEvent(elementTypeID: 3, commandID: 9, person: Int64(person * 7919), slot: 1)) }
        let rows = DayTally.count(events, layout: Self.layout)
        #expect(rows.segmentCommands.map(\.userDays) == [5_000, 10])
        #expect(rows.commands.map(\.userDays) == [5_010])
        #expect(rows.commands[0].users == Self.sketch((0..<5_010).map { Int64($0 * 7919) }))
        #expect(rows.commands[0].users.bytes[0] == 0x14)
    }

    /// The counter keeps a group's people compacted as they come (a few hundred people picking a
    /// command tens of thousands of times) and counts positions past the dense range: the rows
    /// are those of the same events in any order.
    @Test func manyRepeatsInAnyOrderGiveTheSameRows() {
        var events: [DayEvent] = []
        for index in 0..<50_000 {
            events.append(DayEvent(elementTypeID: 4, commandID: 2, person: Int64(index % 300) * 1_000_003,
                                   slot: Int32(index % 4 == 0 ? 1 : 0), position: Int16(index % 7 == 0 ? 1500 + index % 3 : index % 5),
                                   latencyMS: Int32(100 + index % 2000)))
        }
        // A fixed permutation (7,919 is prime to 50,000) and the reverse order.
        let permuted = (0..<events.count).map { events[($0 * 7_919) % events.count] }
        let rows = DayTally.count(events, layout: Self.layout)
        #expect(DayTally.count(permuted, layout: Self.layout) == rows)
        #expect(DayTally.count(events.reversed(), layout: Self.layout) == rows)
        #expect(rows.commands.map(\.selections) == [50_000])
        #expect(rows.commands.map(\.userDays) == [300])
        #expect(rows.commands[0].users == Self.sketch((0..<300).map { Int64($0) * 1_000_003 }))
        let outcomes = rows.outcomes.filter { $0.elementTypeID == 4 }
        #expect(outcomes.reduce(0) { $0 + $1.opens } == 50_000)
        let positions = outcomes.flatMap { zip($0.positions, $0.positionCounts) }
        #expect(positions.reduce(0) { $0 + $1.1 } == 50_000)
        #expect(Set(positions.map(\.0)).isSuperset(of: [1500, 1501, 1502]))
        for outcome in outcomes { #expect(outcome.positions == outcome.positions.sorted()) }
    }

    /// The events of a day dealt out into `parts` counters and one more that stays empty (as
    /// `RollupDay` counts the halves of a big day on two threads), with the rows of the whole day.
    static func dealt(into parts: Int, elementTypes: Int) -> (whole: DayRows, counters: [DayTally.Counter]) {
        var events = Self.events
        for index in 0..<20_000 {
            events.append(DayEvent(elementTypeID: Int32(1 + index % elementTypes), commandID: index % 17 == 0 ? nil : Int32(5 + index % 4),
                                   person: Int64(index % 700) * 7_919, slot: Int32(index % 4), position: Int16(index % 9),
                                   latencyMS: index % 5 == 0 ? nil : Int32(index % 3_000)))
        }
        var counters = [DayTally.Counter](repeating: DayTally.Counter(), count: parts + 1)
        for (index, event) in events.enumerated() {
            counters[(index * 7_919) % parts].add(event, segment: Self.layout.slots[Int(event.slot)].segment)
        }
        return (DayTally.count(events, layout: Self.layout), counters)
    }

    /// A day counted in parts and merged gives the rows of the whole day, however the events are
    /// dealt out, including parts that share groups, people and outcome tallies, and an empty part.
    @Test func partsMergedGiveTheRowsOfTheWholeDay() {
        for parts in [1, 2, 3] {
            let (whole, counters) = Self.dealt(into: parts, elementTypes: 3)
            var merged = counters[parts]
            for counter in counters.reversed() { merged.merge(counter) }
            #expect(merged.rows(layout: Self.layout) == whole)
        }
    }

    /// The rows of parts never merged (`Counter.rows(of:layout:share:of:)`, each share combining
    /// its own element types' groups of every part) joined in share order are the rows of the
    /// whole day, for any number of parts (an empty one among them, some still pending) and shares.
    @Test func sharesOfUnmergedPartsGiveTheRowsOfTheWholeDay() {
        for parts in [1, 2, 3] {
            var (whole, counters) = Self.dealt(into: parts, elementTypes: 7)
            if parts > 1 { counters[1].flush() }   // one part folded, the others with events pending
            for shares in [1, 2, 3, 5] {
                let joined = DayRows(joining: (0..<shares).map {
                    DayTally.Counter.rows(of: counters, layout: Self.layout, share: $0, of: shares)
                })
                #expect(joined == whole, "\(parts) parts, \(shares) shares")
            }
        }
    }

    /// `shareRanges` cuts the element types into ranges that follow each other, cover every
    /// element type, and whose rows (`rows(of:layout:elementTypes:)`, computed in any order and
    /// joined in the ranges' order) are the rows of the whole day; more shares than element types
    /// give empty ranges, whose rows are empty.
    @Test func shareRangesCoverTheElementTypesOnceAndJoinToTheWholeDay() {
        let (whole, counters) = Self.dealt(into: 2, elementTypes: 7)
        for shares in [1, 2, 4, 8, 16] {
            let ranges = DayTally.Counter.shareRanges(of: counters, shares: shares)
            #expect(ranges.count == shares)
            #expect(ranges.first?.lowerBound == Int64.min && ranges.last?.upperBound == Int64.max)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            var computed = [DayRows?](repeating: nil, count: shares)
            for share in (0..<shares).reversed() {
                computed[share] = DayTally.Counter.rows(of: counters, layout: Self.layout, elementTypes: ranges[share])
            }
            #expect(DayRows(joining: computed.map { $0! }) == whole, "\(shares) shares")
            if shares > 7 { #expect(computed.contains { $0!.commands.isEmpty && $0!.elements.isEmpty }) }
        }
    }
}
