import CivilTime
import Postgres
import Rollups

/// Recomputes one day's rollup rows (usage per segment and by default, outcomes) from the day's
/// events, counting them outside the SQL executor: one binary `COPY (SELECT …) TO STDOUT` of the
/// day's events, the counting in Swift (`DayTally`, which also builds the `hll` sketches byte for
/// byte), and one binary `COPY … FROM STDIN` per table for the rows. `RollupStore` calls it
/// inside the rollup's transaction, under the app's lock, after the queue was taken and the day's
/// old rows deleted, so the exactness argument of `RollupStore` holds as it is: the COPY is a
/// statement of its own and sees at least every event whose queue row was taken.
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
/// name the app and the day as constants (COPY takes no binds) and call no volatile function.
enum RollupDay {
    /// What a recompute wrote.
    struct Written {
        var commands = 0
        var elements = 0
        var outcomes = 0
    }

    /// Writes the rows of `day` (whose old rows the caller deleted) from a fresh count of its events.
    static func recompute(appID: Int32, day: CivilDate, on connection: PostgresConnection) throws -> Written {
        let read = try readEvents(appID: appID, day: day, on: connection)
        guard !read.events.isEmpty else { return Written() }
        let (layout, slots) = try readLayout(appID: appID, on: connection)
        var events: [DayEvent] = []
        events.reserveCapacity(read.events.count)
        for (index, var event) in read.events.enumerated() {
            let slot: Int32?
            if let context = read.contexts[index], let found = slots.byContext[context] {
                slot = found
            } else {
                slot = slots.withoutContext
            }
            guard let slot, slot >= 0 else { continue }
            event.slot = slot
            events.append(event)
        }
        let rows = DayTally.count(events, layout: layout)
        return try write(rows, appID: appID, day: day, on: connection)
    }

    /// The day's events, each with its context id (nil for none), in one binary COPY: the person is
    /// the user hash, or for an event without a user the first 64 bits of its event id (sent only
    /// for those events), as `RollupStore.eventPerson` defines it.
    static func readEvents(appID: Int32, day: CivilDate, on connection: PostgresConnection) throws
        -> (events: [DayEvent], contexts: [Int32?])
    {
        var events: [DayEvent] = []
        var contexts: [Int32?] = []
        try connection.copyOutBinary("""
            COPY (SELECT element_type_id, command_id, user_hash, CASE WHEN user_hash IS NULL THEN event_id END, context_id,
                         position, latency_ms
                  FROM events WHERE app_id = \(unsafeRaw: String(appID)) AND day = DATE '\(unsafeRaw: day.description)')
            TO STDOUT (FORMAT binary)
            """)
        { row in
            guard let elementTypeID = try row.int32(0) else {
                throw PostgresError(kind: .decoding, message: "an event without an element type")
            }
            let person: Int64
            if let user = try row.int64(2) {
                person = user
            } else if let id = try row.uuid(3) {
                person = Int64(bitPattern: id.high)
            } else {
                throw PostgresError(kind: .decoding, message: "an event without a user hash or event id")
            }
            events.append(DayEvent(elementTypeID: elementTypeID, commandID: try row.int32(1), person: person, slot: -1,
                                   position: try row.int16(5), latencyMS: try row.int32(6)))
            contexts.append(try row.int32(4))
        }
        return (events, contexts)
    }

    /// Where the events' contexts go: `byContext` maps a context to its slot (-1: its segment does
    /// not exist yet, the event waits for the next rollup); events without a stored context take
    /// `withoutContext` (nil when the app has no segment for them).
    struct Slots {
        var byContext: [Int32: Int32] = [:]
        var withoutContext: Int32?
    }

    /// The app's segments in attribution order (`RollupSegments.ranked`) and its contexts' slots.
    static func readLayout(appID: Int32, on connection: PostgresConnection) throws -> (DayLayout, Slots) {
        var segments: [DayLayout.Segment] = []
        var segmentIndex: [Int32: Int] = [:]
        var bare: Int?
        for row in try connection.query("""
            WITH \(RollupSegments.ranked(appID: appID))
            SELECT segment_id, is_test, NOT is_test AND platform = '' AND app_version = '' FROM segs ORDER BY priority
            """)
        {
            let id: Int32 = try row.decode(at: 0)
            segmentIndex[id] = segments.count
            if try row.decode(Bool.self, at: 2) { bare = segments.count }
            segments.append(DayLayout.Segment(segmentID: id, isTest: try row.decode(at: 1)))
        }
        var slots: [DayLayout.Slot] = []
        var slotIndex: [DayLayout.Slot: Int32] = [:]
        func slot(segment: Int, menuVersion: String) -> Int32 {
            let key = DayLayout.Slot(segment: segment, menuVersion: menuVersion)
            if let found = slotIndex[key] { return found }
            slots.append(key)
            slotIndex[key] = Int32(slots.count - 1)
            return Int32(slots.count - 1)
        }
        var mapping = Slots()
        if let bare { mapping.withoutContext = slot(segment: bare, menuVersion: "") }
        for row in try connection.query("""
            WITH \(RollupSegments.ranked(appID: appID))
            SELECT c.context_id, s.segment_id, c.menu_version
            FROM contexts c
            LEFT JOIN segs s ON s.is_test = c.is_test AND s.platform = \(unsafeRaw: RollupSegments.platformName("c.platform"))
                            AND s.app_version = c.app_version
            WHERE c.app_id = \(appID)
            """)
        {
            let context: Int32 = try row.decode(at: 0)
            if let segment = try row.decode(Int32?.self, at: 1), let index = segmentIndex[segment] {
                mapping.byContext[context] = slot(segment: index, menuVersion: try row.decode(at: 2))
            } else {
                mapping.byContext[context] = -1
            }
        }
        return (DayLayout(segments: segments, slots: slots), mapping)
    }

    /// Stores the rows, one binary COPY per table that has any.
    static func write(_ rows: DayRows, appID: Int32, day: CivilDate, on connection: PostgresConnection) throws -> Written {
        let days = Int32(day.dayNumber)
        if !rows.segmentCommands.isEmpty {
            try connection.copyInBinary("""
                COPY segment_command_usage (app_id, day, segment_id, element_type_id, command_id, selections, user_days, users)
                FROM STDIN (FORMAT binary)
                """)
            { writer in
                for row in rows.segmentCommands {
                    writer.beginRow(fields: 8)
                    writer.append(appID)
                    writer.appendDate(daysSince1970: days)
                    writer.append(row.segmentID)
                    writer.append(row.elementTypeID)
                    writer.append(row.commandID)
                    writer.append(row.selections)
                    writer.append(row.userDays)
                    writer.appendBytes(row.users.bytes)
                    try writer.endRow()
                }
            }
        }
        if !rows.segmentElements.isEmpty {
            try connection.copyInBinary("""
                COPY segment_element_usage (app_id, day, segment_id, element_type_id, selections, dismissals, users)
                FROM STDIN (FORMAT binary)
                """)
            { writer in
                for row in rows.segmentElements {
                    writer.beginRow(fields: 7)
                    writer.append(appID)
                    writer.appendDate(daysSince1970: days)
                    writer.append(row.segmentID)
                    writer.append(row.elementTypeID)
                    writer.append(row.selections)
                    writer.append(row.dismissals)
                    writer.appendBytes(row.users.bytes)
                    try writer.endRow()
                }
            }
        }
        var written = Written()
        if !rows.commands.isEmpty {
            written.commands = try connection.copyInBinary("""
                COPY daily_command_usage (app_id, day, element_type_id, command_id, selections, user_days, users)
                FROM STDIN (FORMAT binary)
                """)
            { writer in
                for row in rows.commands {
                    writer.beginRow(fields: 7)
                    writer.append(appID)
                    writer.appendDate(daysSince1970: days)
                    writer.append(row.elementTypeID)
                    writer.append(row.commandID)
                    writer.append(row.selections)
                    writer.append(row.userDays)
                    writer.appendBytes(row.users.bytes)
                    try writer.endRow()
                }
            }
        }
        if !rows.elements.isEmpty {
            written.elements = try connection.copyInBinary("""
                COPY daily_element_usage (app_id, day, element_type_id, selections, dismissals, users)
                FROM STDIN (FORMAT binary)
                """)
            { writer in
                for row in rows.elements {
                    writer.beginRow(fields: 6)
                    writer.append(appID)
                    writer.appendDate(daysSince1970: days)
                    writer.append(row.elementTypeID)
                    writer.append(row.selections)
                    writer.append(row.dismissals)
                    writer.appendBytes(row.users.bytes)
                    try writer.endRow()
                }
            }
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
}
