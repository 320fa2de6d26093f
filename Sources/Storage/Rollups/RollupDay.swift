import CivilTime
import Dispatch
import Foundation
import Locking
import Postgres
import Ranking
import Rollups

/// Recomputes one day's rollup rows (usage per segment and by default, outcomes) from the day's
/// events, counting them outside the SQL executor: one binary `COPY (SELECT …) TO STDOUT` of the
/// day's events, the counting in Swift (`DayTally`, which also builds the `hll` sketches byte for
/// byte), and one binary `COPY … FROM STDIN` per table for the rows. `RollupStore` calls it
/// inside the rollup's transaction, under the app's lock, after the queue was taken, so the
/// exactness argument of `RollupStore` holds as it is: the COPY is a statement of its own and
/// sees at least every event whose queue row was taken. The day's old rows are deleted after
/// the read and before the write (`clearing`), while the new rows are computed.
///
/// A big day is read in two halves at once (`readHalves`): the pages of its partition from the
/// middle on by that COPY, whose first row exports its snapshot, the pages before by a helper
/// connection in that very snapshot. Server and client then work on both cores (the COPY's send
/// functions are most of the server's share, the count most of the client's), and the argument
/// above still covers the whole day: one snapshot, one relation, two disjoint `ctid` ranges.
///
/// Why outside the executor: the same counts as one SQL statement grouped the day's events by
/// (element type, command, segment) collecting arrays of people, built each group's sketch by a
/// subquery, attributed user-days through another grouping by person, and grouped the outcomes
/// again: about 6 µs of backend CPU per event (2.1 s for 345,000 events), where reading the
/// events out costs a fraction of that and the counting in Swift less still (docs/benchmarks.md).
///
/// Segments and contexts: read after the events, in a newer snapshot, so every context an event
/// refers to is visible (contexts are only ever added). An event without a context, or whose
/// context is not stored, is in the segment of events without one (no test flag, platform or
/// version) with menu version ''; an event whose context has no segment yet (committed after
/// `RollupSegments.ensure`, so after the queue was taken) is left out, and its own queue row,
/// still queued, makes the next rollup count it. This is what `RollupSegments.events` did in SQL.
///
/// Outcomes (sql/0011, `daily_outcomes`): per segment, element type and menu version as the events
/// sent it (their context's, '' for none; kept as text and matched to layouts when read, so a
/// version unknown today still counts): opens, dismissals, selections by position and the latency
/// histogram (`LatencyHistogram`). All of them add up across segments, so a reading sums the
/// segments its filter picks (`OutcomeQuery`).
///
/// Citus: COPY out of a query and COPY into distributed tables both work there; the statements
/// name the app and the day as constants (COPY takes no binds) and call no volatile function
/// (a day is never read in halves there, so `pg_export_snapshot()` is never called).
enum RollupDay {
    /// What a recompute wrote.
    struct Written {
        var commands = 0
        var elements = 0
        var outcomes = 0
        /// Whether the day was read in two halves (`readHalves`).
        var halves = false
    }

    /// Replaces the rows of `day` with those of a fresh count of its events (`clearing` deletes the old ones).
    ///
    /// The events are counted as the COPY delivers them (`DayTally.Counter`, which keeps them as
    /// compact records a chunk at a time, sorted and folded into its counts), never held all at
    /// once. Their contexts' slots come from the layout read before the COPY; an event whose
    /// context was stored after that read (contexts are only ever added) is kept aside and placed
    /// once the COPY has ended and the contexts are read again, so every context an event refers
    /// to is visible, as when the whole layout was read after the events.
    ///
    /// With a `helper` connection, a day of at least `splitFromPages` pages is read in two halves
    /// at once (`readHalves`): the server scans, sends and the client counts each half on a core
    /// of its own, and the rows are made from both counts (`rows(of:layout:inShares:)`). Without
    /// one, or for a smaller day, or on Citus (whose workers do not know the coordinator's
    /// snapshots), in one COPY on `connection`.
    ///
    /// `clearing` deletes the day's old rows on `connection`: it runs once the events are read,
    /// while other threads compute the new rows from the count (the server deletes while the
    /// client counts), and always before they are written, also when the day has no events left.
    static func recompute(appID: Int32, day: CivilDate, on connection: PostgresConnection,
                          alongside helper: PostgresConnection? = nil, splitFromPages: Int = .max,
                          clearing: () throws -> Void) throws -> Written {
        let computed = try compute(appID: appID, day: day, on: connection, alongside: helper,
                                   splitFromPages: splitFromPages, clearing: clearing)
        return try write(computed, appID: appID, day: day, on: connection)
    }

    /// A day's new rows, computed and not yet written (the old ones are deleted).
    struct Computed: Sendable {
        /// Nil when the day has no events left.
        var rows: DayRows?
        var halves: Bool
    }

    /// `recompute` up to the write: reads and counts the day's events, deletes its old rows
    /// (`clearing`) and returns the new ones for `write(_:appID:day:on:)`.
    static func compute(appID: Int32, day: CivilDate, on connection: PostgresConnection,
                        alongside helper: PostgresConnection? = nil, splitFromPages: Int = .max,
                        clearing: () throws -> Void) throws -> Computed {
        var layout = try LayoutReader(appID: appID, on: connection)
        var parts: [Part]
        let half = helper == nil ? nil : try halfPage(appID: appID, day: day, splitFromPages: splitFromPages, on: connection)
        if let helper, let half {
            parts = try readHalves(appID: appID, day: day, from: half, layout: layout, on: connection, alongside: helper)
        } else {
            var part = Part()
            try readEvents(appID: appID, day: day, share: .whole, on: connection) { event, context in
                part.add(event, context: context, layout: layout)
            }
            parts = [part]
        }
        guard parts.contains(where: { $0.read > 0 }) else {
            try clearing()
            return Computed(rows: nil, halves: false)
        }
        let waiting = parts.flatMap { $0.waiting }
        if !waiting.isEmpty {
            try layout.readContexts(on: connection)
            for (event, context) in waiting { layout.count(event, context: context, into: &parts[0].counter) }
        }
        let (counters, dayLayout, inShares) = (parts.map { $0.counter }, layout.dayLayout, half != nil)
        let (_, rows) = try ForkJoin.both({ try clearing() }, alongside: { () -> DayRows in
            Self.rows(of: counters, layout: dayLayout, inShares: inShares)
        })
        return Computed(rows: rows, halves: half != nil)
    }

    /// Stores what `compute` gave (nothing for a day without events).
    static func write(_ computed: Computed, appID: Int32, day: CivilDate, on connection: PostgresConnection) throws
        -> Written
    {
        guard let rows = computed.rows else { return Written() }
        var written = try write(rows, appID: appID, day: day, on: connection)
        written.halves = computed.halves
        return written
    }

    /// The rows of the counts of a day's parts: for a big day (`inShares`), computed in shares of
    /// the element types on as many threads as there are cores, up to 4 (each share combines its
    /// element types' groups of every part, sorts their people and builds their sketches), and
    /// joined. The parts are never merged on one thread first.
    ///
    /// There are four shares per thread, each thread taking the next one as it comes free: the
    /// server deletes the day's old rows on the same cores meanwhile (`clearing`), so one share
    /// per thread left one thread alone with its share, a core idle, for a third of the time.
    static func rows(of counters: [DayTally.Counter], layout: DayLayout, inShares: Bool) -> DayRows {
        let threads = inShares ? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
        guard threads > 1 else { return DayTally.Counter.rows(of: counters, layout: layout, share: 0, of: 1) }
        // Folded here once, not by each share on a copy of its own.
        let settled = counters.map { $0.flushed() }
        let ranges = DayTally.Counter.shareRanges(of: settled, shares: 4 * threads)
        return DayRows(joining: ForkJoin.map(count: ranges.count, threads: threads) {
            DayTally.Counter.rows(of: settled, layout: layout, elementTypes: ranges[$0])
        })
    }

    /// What one reader counted: the events whose slot was known, and those waiting for their
    /// context (stored after the layout was read).
    struct Part: Sendable {
        var counter = DayTally.Counter()
        var waiting: [(event: DayEvent, context: Int32)] = []
        var read = 0

        @inline(__always)
        mutating func add(_ event: DayEvent, context: Int32?, layout: LayoutReader) {
            read += 1
            guard let context else {
                layout.count(event, slot: layout.withoutContext, into: &counter)
                return
            }
            guard let slot = layout.slot(ofContext: context) else {
                waiting.append((event, context))
                return
            }
            layout.count(event, slot: slot, into: &counter)
        }
    }

    /// Which rows of the day a read takes: all of them, or the pages from (or before) a page of the
    /// day's partition (`ctid` ranges, a TID range scan each). The upper half is read by the
    /// rollup's own transaction, whose COPY exports its snapshot in its first row; the lower half
    /// is read on the helper connection in that very snapshot.
    enum Share {
        case whole
        case exportingFrom(page: Int)
        case before(page: Int)
    }

    /// The page that splits the day's partition in two halves, or nil when the day is read in one:
    /// its partition (`events_YYYYMMDD`, as `ensure_event_partitions` names it) is missing or smaller
    /// than `splitFromPages`, or the database is a Citus coordinator.
    static func halfPage(appID: Int32, day: CivilDate, splitFromPages: Int, on connection: PostgresConnection) throws -> Int? {
        guard splitFromPages < .max else { return nil }
        let compact = day.description.replacingOccurrences(of: "-", with: "")
        let pages = try connection.query("""
            SELECT CASE WHEN NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus')
                        THEN pg_relation_size(to_regclass(quote_ident(current_schema()) || \(".events_" + compact)))
                             / current_setting('block_size')::int8 END AS pages
            """).first.flatMap { try $0.decode(Int64?.self, column: "pages").map { Int($0) } }
        guard let pages, pages >= max(1, splitFromPages) else { return nil }
        return pages / 2
    }

    /// Reads and counts the day's two halves at once and returns both counts: the pages from
    /// `page` on `connection` (in the rollup's transaction), the pages before it on `helper`
    /// (`ForkJoin`: a thread of its own).
    ///
    /// One moment for both: the rollup's COPY is one statement, so it reads in one snapshot, and
    /// its first row carries that snapshot's identifier (`pg_export_snapshot()`, which exports the
    /// statement's own snapshot); the helper imports it (`PostgresConnection.readSnapshot`) before
    /// its COPY. So both halves see exactly the events that one COPY of the whole day taken at that
    /// moment would see, and `RollupStore`'s exactness argument holds unchanged. The `ctid` ranges
    /// split the same relation: the rollup's COPY locks the partition until the transaction ends,
    /// so nothing rewrites it (closing a day, `CLUSTER`) before the helper has read it, and the
    /// two ranges cover every page, those added since the split was chosen included.
    static func readHalves(appID: Int32, day: CivilDate, from page: Int, layout: LayoutReader,
                           on connection: PostgresConnection, alongside helper: PostgresConnection) throws -> [Part] {
        let handoff = SnapshotHandoff()
        let (first, theirs) = try ForkJoin.both({ () throws -> Part in
            defer { handoff.give(nil) }
            var part = Part()
            try readEvents(appID: appID, day: day, share: .exportingFrom(page: page), on: connection,
                           exported: { handoff.give($0) }) { event, context in
                part.add(event, context: context, layout: layout)
            }
            part.counter.flush()
            return part
        }, alongside: { () throws -> Part in
            var part = Part()
            guard let snapshot = handoff.take() else { return part }   // the rollup's COPY failed: its error is thrown
            try helper.readSnapshot(snapshot) { helper in
                try readEvents(appID: appID, day: day, share: .before(page: page), on: helper) { event, context in
                    part.add(event, context: context, layout: layout)
                }
            }
            part.counter.flush()   // the sort and the fold of this half, on this thread
            return part
        })
        return [first, theirs]
    }

    /// The identifier of an exported snapshot, handed from one thread to another once: `give` it
    /// (or nil when there is none: the exporter failed), `take` waits for it.
    final class SnapshotHandoff: Sendable {
        private let value = Locked<(given: Bool, snapshot: String?)>((false, nil))
        private let ready = DispatchSemaphore(value: 0)

        /// Gives `snapshot` unless something was given already.
        func give(_ snapshot: String?) {
            let first = value.withLock { state in
                if state.given { return false }
                state = (true, snapshot)
                return true
            }
            if first { ready.signal() }
        }

        func take() -> String? {
            ready.wait()
            return value.withLock { $0.snapshot }
        }
    }

    /// The day's events (of `share`), each with its context id (nil for none), in one binary COPY,
    /// handed to `body` one at a time: the person is the user hash, or for an event without a user
    /// the first 64 bits of its event id (sent only for those events), as `RollupStore.eventPerson`
    /// defines it. The person's bucket is the stored one (sql/0020); for an event stored before
    /// buckets were (NULL), the bucket of its pseudonym (`PersonBucket.of(pseudonym:)`), or without
    /// a user the bucket of its event id, which is the one ingestion would have stored. With
    /// `.exportingFrom`, the COPY's first row is its exported snapshot, handed to `exported` before
    /// any event.
    static func readEvents(appID: Int32, day: CivilDate, share: Share, on connection: PostgresConnection,
                           exported: (String) -> Void = { _ in }, _ body: (DayEvent, Int32?) throws -> Void) throws
    {
        let columns = "element_type_id, command_id, user_hash, CASE WHEN user_hash IS NULL THEN event_id END, context_id, position, latency_ms, person_bucket"
        let events = "events WHERE app_id = \(appID) AND day = DATE '\(day.description)'"
        let query: String
        switch share {
        case .whole:
            query = "SELECT \(columns) FROM \(events)"
        case .before(let page):
            query = "SELECT \(columns) FROM \(events) AND ctid < '(\(page),0)'::tid"
        case .exportingFrom(let page):
            // The snapshot row first (an Append runs its parts in order; pg_export_snapshot() is
            // parallel-unsafe, so the plan has no parallel parts), checked below all the same.
            query = """
                SELECT NULL::int4, NULL::int4, NULL::int8, NULL::uuid, NULL::int4, NULL::int2, NULL::int4, NULL::int2,
                       pg_export_snapshot()
                UNION ALL
                SELECT \(columns), NULL FROM \(events) AND ctid >= '(\(page),0)'::tid
                """
        }
        var exporting: Bool
        if case .exportingFrom = share { exporting = true } else { exporting = false }
        // Fields by position, in the order of `columns`: the rollup's hot path, and binary COPY
        // carries no column names (`BinaryCopyRow`).
        try connection.copyOutBinary(
"COPY (\(unsafeRaw: query)) TO STDOUT (FORMAT binary)") { row in
            if exporting {
                guard row.number == 1, row.isNull(0), let snapshot = row.bytes(8) else {
                    throw PostgresError(kind: .decoding, message: "the rollup's COPY did not start with its snapshot")
                }
                exported(String(decoding: snapshot, as: UTF8.self))
                exporting = false
                return
            }
            guard let elementTypeID = try row.int32(0) else {
                throw PostgresError(kind: .decoding, message: "an event without an element type")
            }
            let person: Int64
            var bucket = try row.int16(7).map(Int.init)
            if let user = try row.int64(2) {
                person = user
            } else if let id = try row.uuid(3) {
                person = Int64(bitPattern: id.high)
                if bucket == nil { bucket = PersonBucket.of(eventIDHigh: id.high, low: id.low) }
            } else {
                throw PostgresError(kind: .decoding, message: "an event without a user hash or event id")
            }
            if let bucket, !(0..<PersonBucket.count).contains(bucket) {
                throw PostgresError(kind: .decoding, message: "an event's person_bucket (\(bucket)) is not 0..<\(PersonBucket.count)")
            }
            try body(DayEvent(elementTypeID: elementTypeID, commandID: try row.int32(1), person: person, slot: -1,
                              position: try row.int16(5), latencyMS: try row.int32(6), personBucket: bucket),
                     try row.int32(4))
        }
    }

    /// The app's segments in attribution order (`RollupSegments.ranked`) and where its contexts'
    /// events go: `byContext` maps a context to its slot (-1: its segment does not exist yet, the
    /// event waits for the next rollup); events without a stored context take `withoutContext`
    /// (nil when the app has no segment for them). The segments are fixed for the rollup (only
    /// `RollupSegments.ensure`, under the app's lock, adds them); contexts may be added meanwhile,
    /// which `readContexts` picks up, keeping every slot already given out.
    struct LayoutReader: Sendable {
        private let appID: Int32
        private var segments: [DayLayout.Segment] = []
        private var segmentIndex: [Int32: Int] = [:]
        private var slots: [DayLayout.Slot] = []
        private var slotIndex: [DayLayout.Slot: Int32] = [:]
        /// Each slot's segment (`slots[slot].segment`).
        private var segmentOfSlot: [Int] = []
        private(set) var byContext: [Int32: Int32] = [:]
        /// `byContext` as an array indexed by the context id, for the ids below `denseLimit` (they
        /// come from one identity sequence, so they are small), `unmapped` where no context is
        /// mapped: the one lookup of each event's context costs no hashing.
        private var denseByContext: [Int32] = []
        static let denseLimit = 1 << 20
        static let unmapped: Int32 = -2
        private(set) var withoutContext: Int32?

        init(appID: Int32, on connection: PostgresConnection) throws {
            self.appID = appID
            var bare: Int?
            for row in try connection.query("""
                WITH \(RollupSegments.ranked(appID: appID))
                SELECT segment_id, is_test, NOT is_test AND platform = '' AND app_version = '' AS bare FROM segs ORDER BY priority
                """)
            {
                let id: Int32 = try row.decode(column: "segment_id")
                segmentIndex[id] = segments.count
                if try row.decode(Bool.self, column: "bare") { bare = segments.count }
                segments.append(DayLayout.Segment(segmentID: id, isTest: try row.decode(column: "is_test")))
            }
            if let bare { withoutContext = slot(segment: bare, menuVersion: "") }
            try readContexts(on: connection)
        }

        var dayLayout: DayLayout { DayLayout(segments: segments, slots: slots) }

        /// Maps the app's contexts not mapped yet.
        mutating func readContexts(on connection: PostgresConnection) throws {
            for row in try connection.query("""
                WITH \(RollupSegments.ranked(appID: appID))
                SELECT c.context_id, s.segment_id, c.menu_version
                FROM contexts c
                LEFT JOIN segs s ON s.is_test = c.is_test AND s.platform = \(unsafeRaw: RollupSegments.platformName("c.platform"))
                                AND s.app_version = c.app_version
                WHERE c.app_id = \(appID)
                """)
            {
                let context: Int32 = try row.decode(column: "context_id")
                guard byContext[context] == nil else { continue }
                let mapped: Int32
                if let segment = try row.decode(Int32?.self, column: "segment_id"), let index = segmentIndex[segment] {
                    mapped = slot(segment: index, menuVersion: try row.decode(column: "menu_version"))

                } else {
                    mapped = -1
                }
                byContext[context] = mapped
                if context >= 0, Int(context) < Self.denseLimit {
                    if Int(context) >= denseByContext.count {
                        denseByContext += repeatElement(Self.unmapped, count: Int(context) + 1 - denseByContext.count)
                    }
                    denseByContext[Int(context)] = mapped
                }
            }
        }

        /// The slot of a mapped context's events (-1: its segment does not exist yet), nil for a
        /// context not mapped (stored after the contexts were read, or not stored).
        @inline(__always)
        func slot(ofContext context: Int32) -> Int32? {
            if context >= 0, Int(context) < denseByContext.count {
                let found = denseByContext[Int(context)]
                return found == Self.unmapped ? nil : found
            }
            return byContext[context]
        }

        /// Counts `event` in its context's slot, or leaves it out when that slot's segment does not
        /// exist yet (or, without a context, when the app has no segment for such events); an
        /// event whose context is not mapped counts as one without a context.
        func count(_ event: DayEvent, context: Int32?, into counter: inout DayTally.Counter) {
            count(event, slot: context.flatMap { slot(ofContext: $0) } ?? withoutContext, into: &counter)
        }

        /// Counts `event` in `slot` (nil or -1: leaves it out).
        @inline(__always)
        func count(_ event: DayEvent, slot: Int32?, into counter: inout DayTally.Counter) {
            guard let slot, slot >= 0 else { return }
            var placed = event
            placed.slot = slot
            counter.add(placed, segment: segmentOfSlot[Int(slot)])
        }

        private mutating func slot(segment: Int, menuVersion: String) -> Int32 {
            let key = DayLayout.Slot(segment: segment, menuVersion: menuVersion)
            if let found = slotIndex[key] { return found }
            slots.append(key)
            segmentOfSlot.append(segment)
            slotIndex[key] = Int32(slots.count - 1)
            return Int32(slots.count - 1)
        }
    }

    /// Stores the rows, one binary COPY per table that has any. The rows of a segment that are
    /// the default rows (`DayRows.segmentSharingDefaultRows`: typically the day's one non-test
    /// segment) are not stored a second time: the day's row in `segment_default_days` names that
    /// segment, and the views `segment_command_usage` and `segment_element_usage` give the
    /// default rows under it (sql/0024).
    static func write(_ rows: DayRows, appID: Int32, day: CivilDate, on connection: PostgresConnection) throws -> Written {
        let days = Int32(day.dayNumber)
        var written = Written()
        let shared = rows.segmentSharingDefaultRows
        try copy(shared == nil ? rows.segmentCommands : rows.segmentCommands.filter { $0.segmentID != shared },
                 into: "segment_command_rows", appID: appID, days: days, on: connection)
        written.commands = try copy(rows.commands, into: "daily_command_usage", appID: appID, days: days, on: connection)
        try copy(shared == nil ? rows.segmentElements : rows.segmentElements.filter { $0.segmentID != shared },
                 into: "segment_element_rows", appID: appID, days: days, on: connection)
        written.elements = try copy(rows.elements, into: "daily_element_usage", appID: appID, days: days, on: connection)
        if let shared {
            try connection.execute("""
                INSERT INTO segment_default_days (app_id, day, segment_id) VALUES (\(appID), \(day), \(shared))
                """)
        }
        if !rows.outcomes.isEmpty {
            written.outcomes = try connection.copyInBinary("""
                COPY daily_outcomes (app_id, day, segment_id, element_type_id, menu_version, opens, dismissals, positions,
                                     position_counts, latency_buckets, latency_counts)
                FROM STDIN (FORMAT binary)
                """)
            { writer in
                for row in rows.outcomes {
                    writer.beginRow(fields: 11)
                    writer.append(appID)
                    writer.appendDate(daysSince1970: days)
                    writer.append(row.segmentID)
                    writer.append(row.elementTypeID)
                    writer.append(row.menuVersion)
                    writer.append(row.opens)
                    writer.append(row.dismissals)
                    writer.appendArray(row.positions)
                    writer.appendArray(row.positionCounts)
                    writer.appendArray(row.latencyBuckets)
                    writer.appendArray(row.latencyCounts)
                    try writer.endRow()
                }
            }
        }
        return written
    }

    /// Command rows into `table`: the segment's table when the rows carry a segment, the default
    /// table (no segment column) when they do not. Returns the rows written.
    @discardableResult
    private static func copy(_ rows: [DayRows.Command], into table: String, appID: Int32, days: Int32,
                             on connection: PostgresConnection) throws -> Int {
        guard let first = rows.first else { return 0 }
        let segmented = first.segmentID != nil
        return try connection.copyInBinary("""
            COPY \(unsafeRaw: table) (app_id, day, \(unsafeRaw: segmented ? "segment_id, " : "")element_type_id, command_id,
                                      selections, user_days, users, people)
            FROM STDIN (FORMAT binary)
            """)
        { writer in
            for row in rows {
                writer.beginRow(fields: segmented ? 9 : 8)
                writer.append(appID)
                writer.appendDate(daysSince1970: days)
                if let segmentID = row.segmentID { writer.append(segmentID) }
                writer.append(row.elementTypeID)
                writer.append(row.commandID)
                writer.append(row.selections)
                writer.append(row.userDays)
                writer.appendBytes(row.users.bytes)
                writer.appendBytes(row.people)
                try writer.endRow()
            }
        }
    }

    /// Element type rows into `table`, with or without the segment column as for commands.
    @discardableResult
    private static func copy(_ rows: [DayRows.Element], into table: String, appID: Int32, days: Int32,
                             on connection: PostgresConnection) throws -> Int {
        guard let first = rows.first else { return 0 }
        let segmented = first.segmentID != nil
        return try connection.copyInBinary("""
            COPY \(unsafeRaw: table) (app_id, day, \(unsafeRaw: segmented ? "segment_id, " : "")element_type_id, selections,
                                      dismissals, users)
            FROM STDIN (FORMAT binary)
            """)
        { writer in
            for row in rows {
                writer.beginRow(fields: segmented ? 7 : 6)
                writer.append(appID)
                writer.appendDate(daysSince1970: days)
                if let segmentID = row.segmentID { writer.append(segmentID) }
                writer.append(row.elementTypeID)
                writer.append(row.selections)
                writer.append(row.dismissals)
                writer.appendBytes(row.users.bytes)
                try writer.endRow()
            }
        }
    }
}
