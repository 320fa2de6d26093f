import Outcomes
import Ranking
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
/// 5. The split by person bucket of each command row (`DayRows.Command.people`, sql/0020): per
///    bucket, the row's selections whose event is in that bucket, and its user-days counted as in
///    2 over (person, bucket) pairs instead of people. A person is in one bucket (it comes from
///    their id), so the split's user-days sum to the row's; only a person whose events of the day
///    were stored partly before buckets were (their bucket then derived from the pseudonym) can
///    count in two buckets.
public enum DayTally {
    /// The rows of one day's `events`. Every event's `slot` must index `layout.slots`.
    public static func count(_ events: [DayEvent], layout: DayLayout) -> DayRows {
        var counter = Counter()
        for event in events { counter.add(event, segment: layout.slots[Int(event.slot)].segment) }
        return counter.rows(layout: layout)
    }

    /// The counting as the events arrive, so that a day never has to be held in memory: `add`
    /// each event (in any order), then take the `rows`. What it keeps follows the day's distinct
    /// (group, person) pairs and its outcome tallies, not its events: events are kept as compact
    /// records (`EventRecords`) until `chunk` of them have come, then sorted by key and folded
    /// into the groups and tallies one run of equal keys at a time (`flush`); a group's people are
    /// sorted and their repeats dropped whenever the list has doubled since, and positions and
    /// latency buckets are counted as they are folded.
    public struct Counter: Sendable {
        private var index: [GroupKey: Int] = [:]
        private var groups: [Group] = []
        private var outcomeIndex: [OutcomeKey: Int] = [:]
        private var outcomes: [OutcomeTally] = []
        /// The one lookup per run of equal keys: its (element type, command, slot) to the group
        /// and the outcome tally it counts in (`index` and `outcomeIndex` are asked only for a
        /// key seen the first time).
        private var places = EventKeyIndex()
        /// The events added since the last `flush`.
        private var pending = EventRecords()
        /// The segment of each slot seen (a slot's segment never changes: it is the layout's).
        private var segmentOfSlot: [Int] = []

        /// Pending events are folded in whenever this many have come: up to 6 MB of records (and
        /// as much for the sort's other buffer), so that each half of a day of 345,000 events at
        /// 1,000 element types is folded at once, in runs of about 9 events.
        public static let chunk = 1 << 18
        /// This counter's `chunk` (tests make it small, to fold often).
        let chunkSize: Int

        public init() { chunkSize = Self.chunk }

        init(chunkSize: Int) {
            precondition(chunkSize > 0, "a chunk holds events")
            self.chunkSize = chunkSize
        }

        /// Counts `event`, whose slot is in `segment` (an index into the layout's segments).
        @inline(__always)
        public mutating func add(_ event: DayEvent, segment: Int) {
            let slot = Int(event.slot)
            if slot >= segmentOfSlot.count || segmentOfSlot[slot] != segment { note(slot: slot, segment: segment) }
            let bucket: Int?
            if event.commandID != nil, let latency = event.latencyMS {
                bucket = LatencyHistogram.bucket(of: Int(latency))
            } else {
                bucket = nil
            }
            if pending.isEmpty { pending.reserve(chunkSize) }
            pending.append(key: EventKeyIndex.pack(elementTypeID: event.elementTypeID, commandID: event.commandID, slot: event.slot),
                           person: event.person, personBucket: event.personBucket,
                           position: event.commandID == nil ? nil : event.position, bucket: bucket)
            if pending.count >= chunkSize { flush() }
        }

        private mutating func note(slot: Int, segment: Int) {
            precondition(slot >= 0 && slot < Int(EventRecords.slotLimit), "a slot is an index into the layout's slots")
            if slot >= segmentOfSlot.count { segmentOfSlot += repeatElement(-1, count: slot + 1 - segmentOfSlot.count) }
            segmentOfSlot[slot] = segment
        }

        /// Folds the events added since the last flush into the groups and tallies (`add` does
        /// so every `chunk` events, and `merge` and `rows` see pending events either way): sorted
        /// by key, each run of equal keys is counted at once. Calling it on the thread that added
        /// the events does this part of the work there.
        public mutating func flush() {
            guard !pending.isEmpty else { return }
            pending.sortByKey()
            // Room for every key of this chunk at once (at most one per run), instead of the table
            // doubling a dozen times as a first chunk's keys come.
            var runs = 0
            pending.records.withUnsafeBufferPointer { records in
                for at in records.indices where at == 0 || !EventRecords.sameKey(records[at], records[at - 1]) { runs += 1 }
            }
            places.reserve(places.count + runs)
            pending.records.withUnsafeBufferPointer { records in
                var start = 0
                while start < records.count {
                    let first = records[start]
                    var end = start + 1
                    while end < records.count, EventRecords.sameKey(records[end], first) { end += 1 }
                    fold(records[start..<end])
                    start = end
                }
            }
            pending.removeAll()
        }

        /// A copy with the pending events folded in (`flush`).
        public func flushed() -> Counter {
            var copy = self
            copy.flush()
            return copy
        }

        /// Counts one run of events of the same key.
        private mutating func fold(_ run: Slice<UnsafeBufferPointer<EventRecords.Record>>) {
            let first = run[run.startIndex]
            let key = (high: EventRecords.keyWord(first), low: first.command & EventKeyIndex.commandMask)
            let place: EventKeyIndex.Place
            if let found = places.place(key) {
                place = found
            } else {
                let elementTypeID = Int32(truncatingIfNeeded: key.high >> 32)
                let slot = Int32(truncatingIfNeeded: key.high)
                let commandID: Int32? = key.low == EventKeyIndex.dismissal ? nil : Int32(truncatingIfNeeded: key.low)
                place = EventKeyIndex.Place(
                    group: Int32(group(elementTypeID: elementTypeID, commandID: commandID, segment: segmentOfSlot[Int(slot)])),
                    outcome: Int32(tally(elementTypeID: elementTypeID, slot: slot)))
                places.add(key, place: place)
            }
            groups.withUnsafeMutableBufferPointer { groups in
                let at = Int(place.group)
                groups[at].events += Int64(run.count)
                // (append(contentsOf:) grows the list geometrically; reserving the exact size would
                // copy it at every run.)
                groups[at].people.append(contentsOf: run.lazy.map {
                    PersonEntry(person: $0.person, bucket: UInt8(truncatingIfNeeded: EventRecords.personBucket($0)))
                })
                if key.low != EventKeyIndex.dismissal {
                    groups[at].picks.withUnsafeMutableBufferPointer { picks in
                        for record in run { picks[EventRecords.personBucket(record)] += 1 }
                    }
                }
                if groups[at].people.count >= groups[at].compactAt {
                    distinct(&groups[at].people)
                    groups[at].compactAt = max(Group.firstCompaction, 2 * groups[at].people.count)
                }
            }
            outcomes.withUnsafeMutableBufferPointer { outcomes in
                let tally = Int(place.outcome)
                outcomes[tally].opens += Int64(run.count)
                guard key.low != EventKeyIndex.dismissal else {
                    outcomes[tally].dismissals += Int64(run.count)
                    return
                }
                for record in run {
                    if let position = EventRecords.position(record) { outcomes[tally].positions.add(Int32(position)) }
                    if let bucket = EventRecords.bucket(record) { outcomes[tally].buckets.add(Int32(bucket)) }
                }
            }
        }

        /// The group of (element type, command, segment), made when it is the first of its group.
        private mutating func group(elementTypeID: Int32, commandID: Int32?, segment: Int) -> Int {
            let key = GroupKey(elementTypeID: elementTypeID, segment: Int32(segment),
                               command: commandID.map { Int64($0) } ?? -(1 << 32))
            if let found = index[key] { return found }
            index[key] = groups.count
            groups.append(Group(elementTypeID: elementTypeID, commandID: commandID, segment: segment))
            return groups.count - 1
        }

        /// The outcome tally of (slot, element type), made when it is the first of its tally.
        private mutating func tally(elementTypeID: Int32, slot: Int32) -> Int {
            let key = OutcomeKey(slot: slot, elementTypeID: elementTypeID)
            if let found = outcomeIndex[key] { return found }
            outcomeIndex[key] = outcomes.count
            outcomes.append(OutcomeTally(key: key))
            return outcomes.count - 1
        }

        /// Adds what `other` counted, as if its events had been added here: a day read in parts
        /// (each part counted on a thread of its own) gives the rows of the whole day. `other`'s
        /// slots must index the same layout.
        public mutating func merge(_ other: Counter) {
            for (slot, segment) in other.segmentOfSlot.enumerated() where segment >= 0 { note(slot: slot, segment: segment) }
            pending.append(contentsOf: other.pending)
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
                groups[at].addPicks(group.picks)
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
            // Groups and tallies that came from `other` have no place here yet: the next run of
            // their key finds them through `index` and `outcomeIndex`.
            if pending.count >= chunkSize { flush() }
        }

        /// Every row of the events added, with `layout` (whose slots include every slot added).
        public func rows(layout: DayLayout) -> DayRows { rows(layout: layout, share: 0, of: 1) }

        /// The rows of one share of the element types (`share` in `0..<shares`): each share takes
        /// the element types of a range, the ranges cut where the groups sorted by element type
        /// are cut in equal parts, so shares computed at once (on threads of their own) do about
        /// equal work, and `DayRows(joining:)` of all of them in share order is `rows(layout:)`.
        /// `flush` first: with events pending, each share folds them again on a copy.
        public func rows(layout: DayLayout, share: Int, of shares: Int) -> DayRows {
            Self.rows(of: [self], layout: layout, share: share, of: shares)
        }

        /// The rows of one share of the element types of the events counted by all of `counters`
        /// (parts of one day, each counted on its own, with the same layout): what
        /// `rows(layout:share:of:)` of their `merge` gives, without merging them first. Each share
        /// combines only its own element types' groups and tallies, so the combining runs on every
        /// share's thread at once instead of on one thread before them.
        public static func rows(of counters: [Counter], layout: DayLayout, share: Int, of shares: Int) -> DayRows {
            precondition(shares > 0 && (0..<shares).contains(share), "a share of the element types")
            if counters.contains(where: { !$0.pending.isEmpty }) {
                return rows(of: counters.map { $0.flushed() }, layout: layout, share: share, of: shares)
            }
            return rows(of: counters, layout: layout, elementTypes: shareRanges(of: counters, shares: shares)[share])
        }

        /// The element types of `counters` cut into `shares` ranges, in order, the cuts where the
        /// groups sorted by element type are cut in equal parts: `rows(of:layout:elementTypes:)`
        /// of each range, joined in order (`DayRows(joining:)`), is `rows(layout:)` of their merge.
        /// Cut once for all shares (a caller that hands shares out to threads as they come free).
        public static func shareRanges(of counters: [Counter], shares: Int) -> [Range<Int64>] {
            precondition(shares > 0, "at least one share")
            guard shares > 1 else { return [Int64.min..<Int64.max] }
            let sorted = counters.flatMap { $0.groups.map { $0.elementTypeID } }.sorted()
            func cut(_ at: Int) -> Int64 {
                if at == 0 { return Int64.min }
                if at == shares { return Int64.max }
                return sorted.isEmpty ? Int64.max : Int64(sorted[sorted.count * at / shares])
            }
            return (0..<shares).map { cut($0)..<cut($0 + 1) }
        }

        /// The rows of the element types in `range` of the events counted by all of `counters`
        /// (one range of `shareRanges`, or every element type).
        public static func rows(of counters: [Counter], layout: DayLayout, elementTypes range: Range<Int64>) -> DayRows {
            if counters.contains(where: { !$0.pending.isEmpty }) {
                return rows(of: counters.map { $0.flushed() }, layout: layout, elementTypes: range)
            }
            let whole = range == Int64.min..<Int64.max
            var parts: [Group] = []
            parts.reserveCapacity(counters.reduce(0) { $0 + $1.groups.count })
            for counter in counters {
                parts += whole ? counter.groups : counter.groups.filter { range.contains(Int64($0.elementTypeID)) }
            }
            parts.sort { Self.order($0) < Self.order($1) }
            // The parts' groups of one key (adjacent once sorted) become one.
            var groups: [Group] = []
            groups.reserveCapacity(parts.count)
            for part in parts {
                if let last = groups.indices.last, Self.order(groups[last]) == Self.order(part) {
                    groups[last].events += part.events
                    groups[last].people += part.people
                    groups[last].addPicks(part.picks)
                } else {
                    groups.append(part)
                }
            }
            for at in groups.indices {
                distinct(&groups[at].people)
                groups[at].hashes = distinctPeople(groups[at].people).map { MurmurHash3.hash($0) }
                groups[at].sketch = HLLSketch(hashes: groups[at].hashes)
            }
            var rows = DayRows()
            countCommands(groups, layout: layout, into: &rows)
            countElements(groups, layout: layout, into: &rows)
            // `outcomeRows` adds up the tallies of one key, from whichever part they come.
            rows.outcomes = outcomeRows(counters.flatMap { counter in
                whole ? counter.outcomes : counter.outcomes.filter { range.contains(Int64($0.key.elementTypeID)) }
            }, layout: layout)
            return rows
        }

        /// The order of the rows' groups: by element type, its dismissals first, then by command,
        /// then by segment (one group per key in a counter).
        private static func order(_ group: Group) -> (Int32, Int, Int32, Int) {
            (group.elementTypeID, group.commandID == nil ? 0 : 1, group.commandID ?? 0, group.segment)
        }

    }

    /// A group of step 1: its events, its distinct (person, bucket) pairs (ascending) and, for a
    /// command, its selections per person bucket (step 5).
    struct Group {
        var elementTypeID: Int32
        var commandID: Int32?
        var segment: Int
        var events: Int64 = 0
        var people: [PersonEntry] = []
        /// Selections per person bucket (`PersonBucket.count` of them; none for dismissals).
        var picks: [Int64]

        init(elementTypeID: Int32, commandID: Int32?, segment: Int) {
            self.elementTypeID = elementTypeID
            self.commandID = commandID
            self.segment = segment
            picks = commandID == nil ? [] : [Int64](repeating: 0, count: PersonBucket.count)
        }

        mutating func addPicks(_ other: [Int64]) {
            for bucket in other.indices { picks[bucket] += other[bucket] }
        }
        /// `people` is compacted when it reaches this many entries.
        var compactAt = Group.firstCompaction
        static let firstCompaction = 4096
        /// The hashes of the distinct people (`MurmurHash3`), which unions reuse.
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
            // Per group, its user-days and their split (the pairs it counts first).
            var userDays: [Int64] = []
            var splits: [[Int64]] = []
            if end - start == 1 {
                var split = [Int64](repeating: 0, count: PersonBucket.count)
                userDays = [countPeople(groups[start].people, splitInto: &split) { _ in true }]
                splits = [split]
            } else {
                var seen = Set<Int64>()
                var seenPairs = Set<PersonEntry>()
                for group in groups[start..<end] {
                    var split = [Int64](repeating: 0, count: PersonBucket.count)
                    userDays.append(countPeople(group.people, splitInto: &split, isFirst: { seen.insert($0).inserted }) {
                        seenPairs.insert($0).inserted
                    })
                    splits.append(split)
                }
            }
            var defaultRow = DayRows.Command(segmentID: nil, elementTypeID: elementTypeID, commandID: commandID, selections: 0,
                                             userDays: 0, users: .empty)
            var defaultPicks = [Int64](repeating: 0, count: PersonBucket.count)
            var defaultSplit = [Int64](repeating: 0, count: PersonBucket.count)
            var defaultGroups: [Int] = []
            for (offset, group) in groups[start..<end].enumerated() {
                let segment = layout.segments[group.segment]
                rows.segmentCommands.append(DayRows.Command(
                    segmentID: segment.segmentID, elementTypeID: elementTypeID, commandID: commandID,
                    selections: group.events, userDays: userDays[offset], users: group.sketch,
                    people: PeopleCounts.encode(selections: group.picks, userDays: splits[offset])))
                if !segment.isTest {
                    defaultRow.selections += group.events
                    defaultRow.userDays += userDays[offset]
                    for bucket in 0..<PersonBucket.count {
                        defaultPicks[bucket] += group.picks[bucket]
                        defaultSplit[bucket] += splits[offset][bucket]
                    }
                    defaultGroups.append(start + offset)
                }
            }
            if !defaultGroups.isEmpty {
                defaultRow.users = union(defaultGroups, of: groups)
                defaultRow.people = PeopleCounts.encode(selections: defaultPicks, userDays: defaultSplit)
                rows.commands.append(defaultRow)
            }
        }
    }

    /// A group's user-days (its distinct people that `isFirst` takes: each person is asked once)
    /// and their split by bucket added into `split` (its pairs that `isFirstPair` takes), from its
    /// sorted pairs.
    static func countPeople(_ people: [PersonEntry], splitInto split: inout [Int64], isFirst: (Int64) -> Bool = { _ in true },
                      isFirstPair: (PersonEntry) -> Bool) -> Int64 {
        var firsts: Int64 = 0
        var previous: Int64?
        for entry in people {
            if entry.person != previous {
                previous = entry.person
                if isFirst(entry.person) { firsts += 1 }
            }
            if isFirstPair(entry) { split[Int(entry.bucket)] += 1 }
        }
        return firsts
    }

    /// Step 3 for element types: per segment, and the default row over the non-test segments.
    static func countElements(_ groups: [Group], layout: DayLayout, into rows: inout DayRows) {
        var start = 0
        while start < groups.count {
            var end = start + 1
            while end < groups.count, groups[end].elementTypeID == groups[start].elementTypeID { end += 1 }
            defer { start = end }
            let elementTypeID = groups[start].elementTypeID
            var bySegment: [Int: [Int]] = [:]
            for at in start..<end { bySegment[groups[at].segment, default: []].append(at) }
            var defaultGroups: [Int] = []
            var defaultRows: [DayRows.Element] = []
            for segment in bySegment.keys.sorted() {
                let members = bySegment[segment]!
                let info = layout.segments[segment]
                let row = element(members, of: groups, segmentID: info.segmentID, elementTypeID: elementTypeID)
                rows.segmentElements.append(row)
                if !info.isTest {
                    defaultGroups += members
                    defaultRows.append(row)
                }
            }
            if defaultRows.count == 1, var row = defaultRows.first {
                // The people of that one segment's row: its sketch (a sketch depends on the set alone).
                row.segmentID = nil
                rows.elements.append(row)
            } else if !defaultGroups.isEmpty {
                rows.elements.append(element(defaultGroups, of: groups, segmentID: nil, elementTypeID: elementTypeID))
            }
        }
    }

    /// The element row of the groups at `members` (indices into `groups`: the groups are read
    /// where they are, not copied, each copy a retain and release of its four arrays).
    static func element(_ members: [Int], of groups: [Group], segmentID: Int32?, elementTypeID: Int32) -> DayRows.Element {
        var row = DayRows.Element(segmentID: segmentID, elementTypeID: elementTypeID, selections: 0, dismissals: 0,
                                  users: union(members, of: groups))
        for at in members {
            if groups[at].commandID == nil { row.dismissals += groups[at].events } else { row.selections += groups[at].events }
        }
        return row
    }

    /// The sketch of the union of the people of the groups at `members` (a single group's own
    /// sketch): the sketch of all their hashes, repeats and all (`HLLSketch` takes them as a set).
    static func union(_ members: [Int], of groups: [Group]) -> HLLSketch {
        if members.count == 1 { return groups[members[0]].sketch }
        var hashes: [Int64] = []
        hashes.reserveCapacity(members.reduce(0) { $0 + groups[$1].hashes.count })
        for at in members { hashes += groups[at].hashes }
        return HLLSketch(hashes: hashes)
    }

    /// A person and their bucket, as a group keeps them: sorted by person, then bucket.
    struct PersonEntry: Hashable, Comparable {
        var person: Int64
        var bucket: UInt8

        @inline(__always)
        static func < (a: PersonEntry, b: PersonEntry) -> Bool {
            a.person < b.person || (a.person == b.person && a.bucket < b.bucket)
        }
    }

    /// The people of sorted pairs, each once.
    static func distinctPeople(_ pairs: [PersonEntry]) -> [Int64] {
        var out: [Int64] = []
        out.reserveCapacity(pairs.count)
        for pair in pairs where out.last != pair.person { out.append(pair.person) }
        return out
    }

    /// Sorts `values` and removes repeats.
    static func distinct<T: Comparable>(_ values: inout [T]) {
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
