import Outcomes
import Sketches

/// Counts one day's events into every rollup row of that day, in one pass over the events and
/// without a database: the usage rows per segment and for the default reading (the non-test
/// segments together) and the outcome rows. Storage's `RollupStore` reads the day once, hands
/// the events here and writes the rows back; this is the whole of the counting, so it is tested
/// here against hand-made days and in Storage against an SQL `GROUP BY` over the same events.
///
/// What each figure is (the same definitions as sql/0009, 0011, 0014):
///
/// 1. Events are grouped by (element type, command or dismissal, segment). A group's selections
///    are its events; its distinct people are counted exactly; its sketch (`HLLSketch`) is that of
///    its distinct people, byte for byte what `hll_add_agg(hll_hash_bigint(person))` stores.
/// 2. User-days of a (element type, command) picked in one segment only: that segment's distinct
///    people. Picked in several: each person counts once, in the first segment (in
///    `DayLayout.segments` order) they picked it in. So the user-days of any set of segments sum
///    to at most its distinct people, and exactly to them for the non-test segments (they come
///    first), for all segments, and for the non-test segments of a version and above.
/// 3. Element rows per segment: selections and dismissals of the segment's groups, the sketch of
///    all their people. Default rows (`segmentID` nil): the sums over the non-test segments, the
///    sketches of the union of their people (a sketch of a union is the union of the sketches:
///    `HLLSketch` depends on the set alone), present when the element type or command has at
///    least one non-test group.
/// 4. Outcomes per (segment, menu version, element type): opens (selections and dismissals),
///    dismissals, selections by position (those with one) and by latency bucket (those with a
///    latency, `LatencyHistogram.bucket(of:)`).
public enum DayTally {
    /// The rows of one day's `events`. Every event's `slot` must index `layout.slots`.
    public static func count(_ events: [DayEvent], layout: DayLayout) -> DayRows {
        var counter = Counter()
        for event in events { counter.add(event, segment: layout.slots[Int(event.slot)].segment) }
        return counter.rows(layout: layout)
    }

    /// The counting as the events arrive, so that a day never has to be held in memory: `add`
    /// each event (in any order), then take the `rows`. What it keeps follows the day's distinct
    /// (group, person) pairs and its outcome tallies, not its events: a group's people are sorted
    /// and their repeats dropped whenever the list has doubled since, and positions and latency
    /// buckets are counted as they come.
    public struct Counter: Sendable {
        private var index: [GroupKey: Int] = [:]
        private var groups: [Group] = []
        private var outcomeIndex: [OutcomeKey: Int] = [:]
        private var outcomes: [OutcomeTally] = []
        /// The one lookup per event: its (element type, command, slot) to the group and the
        /// outcome tally it counts in (`index` and `outcomeIndex` are asked only for a key seen
        /// the first time).
        private var places = EventKeyIndex()

        public init() {}

        /// Counts `event`, whose slot is in `segment` (an index into the layout's segments).
        public mutating func add(_ event: DayEvent, segment: Int) {
            let key = EventKeyIndex.pack(elementTypeID: event.elementTypeID, commandID: event.commandID, slot: event.slot)
            let place: EventKeyIndex.Place
            if let found = places.place(key) {
                place = found
            } else {
                place = EventKeyIndex.Place(group: Int32(group(of: event, segment: segment)), outcome: Int32(tally(of: event)))
                places.add(key, place: place)
            }
            let at = Int(place.group)
            groups[at].events += 1
            groups[at].people.append(event.person)
            if groups[at].people.count >= groups[at].compactAt {
                distinct(&groups[at].people)
                groups[at].compactAt = max(Group.firstCompaction, 2 * groups[at].people.count)
            }

            let tally = Int(place.outcome)
            outcomes[tally].opens += 1
            guard event.commandID != nil else {
                outcomes[tally].dismissals += 1
                return
            }
            if let position = event.position { outcomes[tally].positions.add(Int32(position)) }
            if let latency = event.latencyMS { outcomes[tally].buckets.add(Int32(LatencyHistogram.bucket(of: Int(latency)))) }
        }

        /// The group `event` counts in, made when it is the first of its group.
        private mutating func group(of event: DayEvent, segment: Int) -> Int {
            let key = GroupKey(elementTypeID: event.elementTypeID, segment: Int32(segment),
                               command: event.commandID.map { Int64($0) } ?? -(1 << 32))
            if let found = index[key] { return found }
            index[key] = groups.count
            groups.append(Group(elementTypeID: event.elementTypeID, commandID: event.commandID, segment: segment))
            return groups.count - 1
        }

        /// The outcome tally `event` counts in, made when it is the first of its tally.
        private mutating func tally(of event: DayEvent) -> Int {
            let key = OutcomeKey(slot: event.slot, elementTypeID: event.elementTypeID)
            if let found = outcomeIndex[key] { return found }
            outcomeIndex[key] = outcomes.count
            outcomes.append(OutcomeTally(key: key))
            return outcomes.count - 1
        }

        /// Adds what `other` counted, as if its events had been added here: a day read in parts
        /// (each part counted on a thread of its own) gives the rows of the whole day. `other`'s
        /// slots must index the same layout.
        public mutating func merge(_ other: Counter) {
            for group in other.groups {
                let key = GroupKey(elementTypeID: group.elementTypeID, segment: Int32(group.segment),
                                   command: group.commandID.map { Int64($0) } ?? -(1 << 32))
                guard let at = index[key] else {
                    index[key] = groups.count
                    groups.append(group)
                    continue
                }
                groups[at].events += group.events
                groups[at].people += group.people
                if groups[at].people.count >= groups[at].compactAt {
                    distinct(&groups[at].people)
                    groups[at].compactAt = max(Group.firstCompaction, 2 * groups[at].people.count)
                }
            }
            for tally in other.outcomes {
                guard let at = outcomeIndex[tally.key] else {
                    outcomeIndex[tally.key] = outcomes.count
                    outcomes.append(tally)
                    continue
                }
                outcomes[at].opens += tally.opens
                outcomes[at].dismissals += tally.dismissals
                outcomes[at].positions.merge(tally.positions)
                outcomes[at].buckets.merge(tally.buckets)
            }
        }

        /// Every row of the events added, with `layout` (whose slots include every slot added).
        public func rows(layout: DayLayout) -> DayRows {
            var rows = DayRows()
            var groups = self.groups
            for at in groups.indices {
                distinct(&groups[at].people)
                groups[at].hashes = groups[at].people.map { MurmurHash3.hash($0) }
                groups[at].sketch = HLLSketch(hashes: groups[at].hashes)
            }
            groups.sort {
                ($0.elementTypeID, $0.commandID == nil ? 0 : 1, $0.commandID ?? 0, $0.segment)
                    < ($1.elementTypeID, $1.commandID == nil ? 0 : 1, $1.commandID ?? 0, $1.segment)
            }
            countCommands(groups, layout: layout, into: &rows)
            countElements(groups, layout: layout, into: &rows)
            rows.outcomes = outcomeRows(outcomes, layout: layout)
            return rows
        }
    }

    /// A group of step 1: its events and its distinct people (ascending).
    struct Group {
        var elementTypeID: Int32
        var commandID: Int32?
        var segment: Int
        var events: Int64 = 0
        var people: [Int64] = []
        /// `people` is compacted when it reaches this many entries.
        var compactAt = Group.firstCompaction
        static let firstCompaction = 4096
        /// The hashes of `people` (`MurmurHash3`), which unions reuse.
        var hashes: [Int64] = []
        var sketch = HLLSketch.empty
    }

    struct GroupKey: Hashable {
        var elementTypeID: Int32
        var segment: Int32
        /// The command, or -1 << 32 for the dismissals (outside Int32's range).
        var command: Int64

        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(UInt32(bitPattern: elementTypeID)) << 32 | UInt64(UInt32(bitPattern: segment)))
            hasher.combine(command)
        }
    }

    /// Steps 2 and 3 for commands: per (element type, command), its groups in segment order.
    static func countCommands(_ groups: [Group], layout: DayLayout, into rows: inout DayRows) {
        var start = 0
        while start < groups.count {
            var end = start + 1
            while end < groups.count, groups[end].elementTypeID == groups[start].elementTypeID,
                  groups[end].commandID == groups[start].commandID { end += 1 }
            defer { start = end }
            guard let commandID = groups[start].commandID else { continue }
            let elementTypeID = groups[start].elementTypeID
            var userDays: [Int64]
            if end - start == 1 {
                userDays = [Int64(groups[start].people.count)]
            } else {
                var seen = Set<Int64>()
                userDays = []
                for group in groups[start..<end] {
                    var firsts: Int64 = 0
                    for person in group.people where seen.insert(person).inserted { firsts += 1 }
                    userDays.append(firsts)
                }
            }
            var defaultRow = DayRows.Command(segmentID: nil, elementTypeID: elementTypeID, commandID: commandID, selections: 0,
                                             userDays: 0, users: .empty)
            var defaultGroups: [Int] = []
            for (offset, group) in groups[start..<end].enumerated() {
                let segment = layout.segments[group.segment]
                rows.segmentCommands.append(DayRows.Command(
                    segmentID: segment.segmentID, elementTypeID: elementTypeID, commandID: commandID,
                    selections: group.events, userDays: userDays[offset], users: group.sketch))
                if !segment.isTest {
                    defaultRow.selections += group.events
                    defaultRow.userDays += userDays[offset]
                    defaultGroups.append(start + offset)
                }
            }
            if !defaultGroups.isEmpty {
                defaultRow.users = union(defaultGroups.map { groups[$0] })
                rows.commands.append(defaultRow)
            }
        }
    }

    /// Step 3 for element types: per segment, and the default row over the non-test segments.
    static func countElements(_ groups: [Group], layout: DayLayout, into rows: inout DayRows) {
        var start = 0
        while start < groups.count {
            var end = start + 1
            while end < groups.count, groups[end].elementTypeID == groups[start].elementTypeID { end += 1 }
            defer { start = end }
            let elementTypeID = groups[start].elementTypeID
            var bySegment: [Int: [Group]] = [:]
            for group in groups[start..<end] { bySegment[group.segment, default: []].append(group) }
            var defaultGroups: [Group] = []
            for segment in bySegment.keys.sorted() {
                let members = bySegment[segment]!
                let info = layout.segments[segment]
                rows.segmentElements.append(element(members, segmentID: info.segmentID, elementTypeID: elementTypeID))
                if !info.isTest { defaultGroups += members }
            }
            if !defaultGroups.isEmpty { rows.elements.append(element(defaultGroups, segmentID: nil, elementTypeID: elementTypeID)) }
        }
    }

    static func element(_ groups: [Group], segmentID: Int32?, elementTypeID: Int32) -> DayRows.Element {
        var row = DayRows.Element(segmentID: segmentID, elementTypeID: elementTypeID, selections: 0, dismissals: 0,
                                  users: union(groups))
        for group in groups {
            if group.commandID == nil { row.dismissals += group.events } else { row.selections += group.events }
        }
        return row
    }

    /// The sketch of the union of the groups' people (a single group's own sketch): the sketch of
    /// all their hashes, repeats and all (`HLLSketch` takes them as a set).
    static func union(_ groups: [Group]) -> HLLSketch {
        if groups.count == 1 { return groups[0].sketch }
        var hashes: [Int64] = []
        hashes.reserveCapacity(groups.reduce(0) { $0 + $1.hashes.count })
        for group in groups { hashes += group.hashes }
        return HLLSketch(hashes: hashes)
    }

    /// Sorts `values` and removes repeats.
    static func distinct(_ values: inout [Int64]) {
        guard values.count > 1 else { return }
        values.sort()
        var kept = 1
        for index in 1..<values.count where values[index] != values[kept - 1] {
            values[kept] = values[index]
            kept += 1
        }
        values.removeLast(values.count - kept)
    }

    /// Step 4 as the events come: per (slot, element type), opens, dismissals, and the selections
    /// by position and by latency bucket.
    struct OutcomeKey: Hashable {
        var slot: Int32
        var elementTypeID: Int32
    }

    struct OutcomeTally {
        var key: OutcomeKey
        var opens: Int64 = 0
        var dismissals: Int64 = 0
        var positions = SmallCounts()
        var buckets = SmallCounts()
    }

    /// Step 4's rows: slots with the same segment and menu version count together.
    static func outcomeRows(_ tallies: [OutcomeTally], layout: DayLayout) -> [DayRows.Outcome] {
        var canonical: [DayLayout.Slot: Int32] = [:]
        let slotOf: [Int32] = layout.slots.enumerated().map { offset, slot in
            if let first = canonical[slot] { return first }
            canonical[slot] = Int32(offset)
            return Int32(offset)
        }
        var index: [OutcomeKey: Int] = [:]
        var merged: [OutcomeTally] = []
        for tally in tallies {
            let key = OutcomeKey(slot: slotOf[Int(tally.key.slot)], elementTypeID: tally.key.elementTypeID)
            if let at = index[key] {
                merged[at].opens += tally.opens
                merged[at].dismissals += tally.dismissals
                merged[at].positions.merge(tally.positions)
                merged[at].buckets.merge(tally.buckets)
            } else {
                index[key] = merged.count
                var copy = tally
                copy.key = key
                merged.append(copy)
            }
        }
        return merged.map { tally in
            let slot = layout.slots[Int(tally.key.slot)]
            let positions = tally.positions.histogram
            let buckets = tally.buckets.histogram
            return DayRows.Outcome(segmentID: layout.segments[slot.segment].segmentID, elementTypeID: tally.key.elementTypeID,
                                   menuVersion: slot.menuVersion, opens: tally.opens, dismissals: tally.dismissals,
                                   positions: positions.values, positionCounts: positions.counts,
                                   latencyBuckets: buckets.values, latencyCounts: buckets.counts)
        }
        .sorted { ($0.segmentID, $0.elementTypeID, $0.menuVersion) < ($1.segmentID, $1.elementTypeID, $1.menuVersion) }
    }
}
