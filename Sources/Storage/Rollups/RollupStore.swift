public import CivilTime
import Locking
public import Postgres
import Rollups
import Sketches

/// Maintains the daily rollups (`daily_command_usage`, `daily_element_usage`) from `events`.
///
/// Incremental and exact, also while ingestion runs. Ingestion appends `(app_id, day)` to
/// `rollup_queue` in the same transaction as the events. A rollup of an app runs in one transaction
/// under an advisory lock of that app (rollups of one app never overlap):
///
/// 1. `DELETE FROM rollup_queue WHERE app_id = $1 RETURNING day` takes the queued days;
/// 2. each of those days is recomputed wholly from `events`: the day's events are read once (one
///    binary `COPY … TO STDOUT`; a big day in two halves at once, the second on a helper
///    connection in the snapshot the first exports, so still one read of one moment), counted
///    outside the SQL executor (`DayTally`, sketches included), its old rollup rows deleted (while
///    the client computes the new ones) and the new rows written back by binary COPY
///    (`RollupDay`), usage and outcomes from the same read.
///
/// Why nothing is counted twice or missed: the queue rows step 1 sees were committed together with
/// their events, and every later statement of the transaction takes a newer snapshot (READ
/// COMMITTED), so step 2 sees at least those events. Events committed after step 1 may be counted
/// in step 2 as well, but their queue rows stay behind, so the next rollup recomputes their day
/// again, replacing the rows rather than adding to them. A late event re-queues its own day.
///
/// Segments (sql/0014): every day is kept per segment of the app's events (test flag, platform
/// name, app version: `segment_command_usage`, `segment_element_usage`) and, for the default
/// reading, summed over the non-test segments (`daily_command_usage`, `daily_element_usage`, and
/// their blocks), all four from one scan. The segments of the app's contexts are added after step
/// 1, so every event whose queue row was taken has its segment (see `RollupSegments`). A segment
/// whose rows are the default rows is not stored twice (sql/0024: `segment_default_days` notes it,
/// and the two per-segment names are views over the stored rows and those default rows), so the
/// rows written and deleted are `segment_command_rows` and `segment_element_rows` (`dayTables`).
///
/// Distinct users are `hll` sketches, byte for byte what `hll_add_agg(hll_hash_bigint(person))`
/// stores (built in Swift, `HLLSketch`), which a window unions without reading events again; a
/// dismissal is an event whose `command_id` is NULL. Days are `date` values written as
/// `YYYY-MM-DD` (UTC days, never the session time zone), and no statement calls a volatile
/// function, so the statements stay valid on Citus.
///
/// Block rollups (`RollupBlock`, sql/0005) are kept in the same transaction: every block holding a
/// recomputed day is deleted, then every block that has ended (its last day is at most the newest
/// day with rollups) and is not stored is computed from its two halves, for the blocks that were
/// stored before and for any block ending in the last `blockHorizon` days. On a nightly run that is
/// the blocks ending with the new day: one block a night on average (level 1 every other night,
/// level 2 every fourth, ...), each read from two rows per command. The parts this rollup wrote
/// itself (the days it recomputed, the blocks it computed) are taken from its memory rather than
/// read back (`Held`), when it recomputes at most `heldDaysLimit` days: on a nightly run a level-1
/// block reads only its older day, a level-2 block only its older half.
public struct RollupStore: Sendable {
    /// The first key of the advisory lock taken per app (`pg_advisory_xact_lock(key, app_id)`).
    public static let lockKey: Int32 = 0x6D72_6F6C

    /// Missing blocks that end this many days before the newest rolled-up day or later are filled
    /// in by a rollup; older ones (never stored, say from before sql/0005) are read as days.
    public static let blockHorizon = 64

    /// A rollup that recomputes at most this many days keeps their rows, and the rows of the
    /// blocks it computes, for the blocks above them (`Held`); a backfill of more reads them back.
    static let heldDaysLimit = 4

    /// With a helper connection, a day whose partition takes at least this many 8 kB pages (about
    /// 80 events each) is read in two halves at once, one on each connection, in one snapshot
    /// (`RollupDay.readHalves`); a smaller one costs less read at once than the helper's round trips.
    public var splitFromPages: Int

    /// Whether the rollup's COMMIT returns before its WAL is on disk (`synchronous_commit` off for
    /// that transaction alone: at 1,000 element types the wait for the flush was 50 ms of a
    /// night's rollup). Safe for these rows, which are derived: a crash can only lose the whole
    /// transaction, its rows and its queue DELETE together, so its days are queued again and the
    /// next rollup recomputes them; and any later synchronous commit (a proposal filed from these
    /// rows) flushes the WAL before it, this commit's with it. The nightly commands turn it on;
    /// forgetting a person (`PrivacyStore`) keeps the default, so once it returns the person is
    /// out of the rollups on disk too.
    public var asynchronousCommit: Bool

    /// Where "now" comes from: the time each rollup records (`rollup_times`).
    public var clock: WallClock

    public init(splitFromPages: Int = 256, asynchronousCommit: Bool = false, clock: WallClock = .system) {
        self.splitFromPages = splitFromPages
        self.asynchronousCommit = asynchronousCommit
        self.clock = clock
    }

    /// Rolls up what was queued for one app since its last rollup, in one transaction.
    /// - Parameter helper: a second connection, not in a transaction and used by nothing else
    ///   meanwhile, that reads half of each big day (see `splitFromPages`); nil: one connection.
    /// - Throws: `StorageError`.
    public func rollUp(appID: Int32, on connection: PostgresConnection,
                       alongside helper: PostgresConnection? = nil) throws(StorageError) -> RollupOutcome {
        try rollUp(appID: appID, on: connection, alongside: helper, preview: nil as Preview<Never>?).outcome
    }

    /// `rollUp(appID:on:alongside:)` that hands the new rows of the recomputed days in `range` to
    /// `meanwhile` as soon as they are computed (`RollupPreview`), and runs it on a thread of its
    /// own while this thread writes the last day's rows and the blocks: a reader of a window can
    /// then read the rest of it on another connection while the rollup's server writes (see
    /// `RollupPreview` for why that is exact). `meanwhile` must not use `connection`, nor `helper`
    /// before it is called (the rollup's reads of big days use it until then).
    ///
    /// `meanwhile` is not called (nil) when more than `maxPreviewDays` recomputed days fall in
    /// `range` (a backfill: their rows would all be held at once). Its error does not stop the
    /// rollup, which commits regardless; it is returned, for the caller to throw or to redo the
    /// read after the commit.
    /// - Throws: `StorageError` when the rollup fails (then `meanwhile` has finished too).
    public func rollUp<T: Sendable>(appID: Int32, on connection: PostgresConnection, alongside helper: PostgresConnection?,
                                    previewing range: ClosedRange<CivilDate>, maxPreviewDays: Int = 4,
                                    meanwhile: @escaping @Sendable (RollupPreview) throws -> T) throws(StorageError)
        -> (outcome: RollupOutcome, meanwhile: Result<T, any Error>?)
    {
        try rollUp(appID: appID, on: connection, alongside: helper,
                   preview: Preview(range: range, maxDays: maxPreviewDays, body: meanwhile))
    }

    /// What `meanwhile` is given and when.
    private struct Preview<T: Sendable> {
        var range: ClosedRange<CivilDate>
        var maxDays: Int
        var body: @Sendable (RollupPreview) throws -> T
    }

    private func rollUp<T: Sendable>(appID: Int32, on connection: PostgresConnection, alongside helper: PostgresConnection?,
                                     preview: Preview<T>?) throws(StorageError)
        -> (outcome: RollupOutcome, meanwhile: Result<T, any Error>?)
    {
        return try StorageError.mapping {
            try connection.withTransaction { connection in
                if asynchronousCommit { try connection.execute(unsafeSQL: "SET LOCAL synchronous_commit TO off") }
                try connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey), \(appID))")
                // After the lock, which `apps delete` takes too: a deleted app is never rolled up
                // (what it left queued goes), and days before the app's rollup retention
                // (sql/0017 `rollup_horizons`) are taken off the queue without being recomputed.
                // Two statements, not a subquery of the horizon under the app's row: on Citus `apps`
                // is a reference table and `rollup_horizons` distributed, and Citus refuses a
                // correlated subquery under a reference table.
                guard try !connection.query("SELECT 1 FROM apps WHERE app_id = \(appID)").isEmpty else {
                    try connection.execute("DELETE FROM rollup_queue WHERE app_id = \(appID)")
                    return (RollupOutcome(appID: appID, days: [], commandRows: 0, elementRows: 0), nil)
                }
                let firstKept = try connection.query("SELECT first_kept::text FROM rollup_horizons WHERE app_id = \(appID)")
                    .first.flatMap { try $0.decode(String.self, column: "first_kept") }.flatMap { CivilDate(parsing: $0)?.dayNumber }
                // The time of this rollup (sql/0023): every event whose queue row committed before
                // the queue is taken below is counted once this transaction commits.
                let takenAt = clock.now()
                let queued = try connection.query("""
                    WITH taken AS (DELETE FROM rollup_queue WHERE app_id = \(appID) RETURNING day)
                    SELECT DISTINCT day::text FROM taken ORDER BY 1
                    """)
                try connection.execute("""
                    INSERT INTO rollup_times (app_id, rolled_up_at) VALUES (\(appID), \(takenAt))
                    ON CONFLICT (app_id) DO UPDATE SET rolled_up_at = GREATEST(rollup_times.rolled_up_at, EXCLUDED.rolled_up_at)
                    """)
                var outcome = RollupOutcome(appID: appID, days: [], commandRows: 0, elementRows: 0)
                let days = try queued.map { row -> Int in
                    let text: String = try row.decode(column: "day")
                    guard let day = CivilDate(parsing: text)?.dayNumber else {
                        throw PostgresError(kind: .decoding, message: "rollup_queue holds an unreadable day \(text)")
                    }
                    return day
                }.filter { day in firstKept.map { day >= $0 } ?? true }
                if !days.isEmpty { try RollupSegments.ensure(appID: appID, on: connection) }
                let previewing = preview.flatMap { preview in
                    days.count(where: { preview.range.contains(CivilDate(dayNumber: $0)) }) <= preview.maxDays ? preview : nil
                }

                // The rollup counts its days as day numbers (ranges, block arithmetic); they become
                // dates where they leave it, in the outcome.
                func record(_ day: Int, _ written: RollupDay.Written) {
                    outcome.days.append(CivilDate(dayNumber: day))
                    outcome.commandRows += written.commands
                    outcome.elementRows += written.elements
                    outcome.outcomeRows += written.outcomes
                    if written.halves { outcome.daysReadInHalves += 1 }
                }
                // Each day is written once the next one is computed, so the last day's write can
                // run beside `meanwhile`.
                var kept: [Int: DayRows] = [:]
                var held = Held(active: days.count <= Self.heldDaysLimit)
                var unwritten: (day: Int, rows: RollupDay.Computed)?
                for day in days {
                    if let (previous, rows) = unwritten {
                        record(previous, try RollupDay.write(rows, appID: appID, day: CivilDate(dayNumber: previous),
                                                             on: connection))
                    }
                    let computed = try RollupDay.compute(appID: appID, day: CivilDate(dayNumber: day), on: connection,
                                                         alongside: helper, splitFromPages: splitFromPages) {
                        try clear(Self.dayTables, appID: appID, where: "day = DATE '\(CivilDate(dayNumber: day))'", on: connection)
                    }
                    if let previewing, previewing.range.contains(CivilDate(dayNumber: day)), let rows = computed.rows { kept[day] = rows }
                    held.keep(day: day, computed.rows)
                    unwritten = (day, computed)
                }
                let finish = { () throws -> Void in
                    if let (day, rows) = unwritten {
                        record(day, try RollupDay.write(rows, appID: appID, day: CivilDate(dayNumber: day), on: connection))
                    }
                    outcome.blocks = try maintainBlocks(appID: appID, recomputed: outcome.days.map { $0.dayNumber },
                                                        held: &held, on: connection)
                }
                guard let previewing else {
                    try finish()
                    return (outcome, nil)
                }
                let handed = RollupPreview(days: days, rows: kept, range: previewing.range)
                kept = [:]
                let body = previewing.body
                let (_, result) = try ForkJoin.both(finish, alongside: { Result { try body(handed) } })
                return (outcome, result)
            }
        }
    }

    /// Rolls up every app with queued days, one transaction per app, in app id order.
    public func rollUpAll(on connection: PostgresConnection,
                          alongside helper: PostgresConnection? = nil) throws(StorageError) -> [RollupOutcome] {
        return try StorageError.mapping {
            let apps = try connection.query("SELECT DISTINCT app_id FROM rollup_queue ORDER BY app_id")
                .map { try $0.decode(Int32.self, column: "app_id") }
            return try apps.map { try rollUp(appID: $0, on: connection, alongside: helper) }
        }
    }

    /// Keeps the block rollups in step with the recomputed days (see the type's notes) and returns
    /// the blocks computed.
    private func maintainBlocks(appID: Int32, recomputed days: [Int], held: inout Held, on connection: PostgresConnection)
        throws -> [RollupBlock]
    {
        guard !days.isEmpty else { return [] }
        var stale = Set<RollupBlock>()
        for day in days {
            for level in RollupBlock.levels { stale.insert(RollupBlock(level: level, containing: day)) }
        }
        let staleList = stale.sorted()
        let levels = staleList.map { Int32($0.level) }
        let indexes = staleList.map { Int32($0.index) }
        var mustRedo = Set<RollupBlock>()
        for row in try connection.query("""
            DELETE FROM rollup_blocks r USING unnest(\(levels)::int4[], \(indexes)::int4[]) AS s(level, block)
            WHERE r.app_id = \(appID) AND r.level = s.level AND r.block = s.block
            RETURNING r.level, r.block
            """)
        {
            mustRedo.insert(RollupBlock(level: Int(try row.decode(Int16.self, column: "level")),
                                        index: Int(try row.decode(Int32.self, column: "block"))))
        }
        // The rows of the stale blocks that were stored go with them, each block by its key prefix
        // (a join of the block tables with the stale list was planned as a scan of the whole
        // table, 70 ms at 28 days of 345,000 events, on every night). Rows of a block that was never
        // listed are left-overs no reader uses, and `compute` clears them before writing the block.
        for block in mustRedo.sorted() {
            try clear(Self.blockTables, appID: appID, where: "level = \(block.level) AND block = \(block.index)", on: connection)
        }

        guard let newest = try connection.query("""
            SELECT (max(day) - DATE '1970-01-01')::int4 AS newest FROM daily_element_usage WHERE app_id = \(appID)
            """).first.flatMap({ try $0.decode(Int32?.self, column: "newest").map { Int($0) } })

        else { return [] }
        let horizon = newest - Self.blockHorizon + 1
        let lowest = min(horizon, mustRedo.map { $0.firstDay }.min() ?? horizon)
        var available = try RollupSpan.availableBlocks(appID: appID, from: lowest, to: newest, on: connection)

        var computed: [RollupBlock] = []
        for level in RollupBlock.levels {
            var wanted = mustRedo.filter { $0.level == level && $0.lastDay <= newest }
            let size = 1 << level
            var index = (horizon + size - 1) >> level    // the first block starting at or after the horizon
            while (index + 1) * size - 1 <= newest {
                wanted.insert(RollupBlock(level: level, index: index))
                index += 1
            }
            for block in wanted.sorted() where !available.contains(block) {
                try compute(block, appID: appID, available: available, cleared: mustRedo.contains(block), held: &held,
                            on: connection)
                available.insert(block)
                computed.append(block)
            }
        }
        return computed
    }

    /// The tables holding a day's rollup rows: usage (sql/0001, 0014, 0024) and outcomes (sql/0011).
    static let dayTables = ["daily_command_usage", "daily_element_usage", "segment_command_rows", "segment_element_rows",
                            "segment_default_days", "daily_outcomes"]
    /// The tables holding a block's rows (sql/0005).
    static let blockTables = ["block_command_usage", "block_element_usage"]

    /// Deletes the app's rows matching `condition` from each of `tables`, all in one round trip (the
    /// simple query protocol runs the statements one after the other, inside the caller's
    /// transaction; the first failure stops them and is thrown). Only constant table names, the
    /// app id and `condition` (built here from integers and a day `CivilDate` wrote) make up
    /// the text, so it needs no binds. One round trip instead of one per table: a nightly run
    /// made about 45, each a wake-up of the client and of the server on a loaded machine.
    private func clear(_ tables: [String], appID: Int32, where condition: String, on connection: PostgresConnection) throws {
        try connection.execute(unsafeSQL: tables.map { "DELETE FROM \($0) WHERE app_id = \(appID) AND \(condition)" }
            .joined(separator: "; "))
    }

    /// Writes the rows of one block from its parts one level down (blocks where stored, else days).
    ///
    /// The parts' rows are read as they are stored, in binary, summed and united here
    /// (`PartTotals.sketches`: per key the bytes `hll_union_agg` would store), and written back by
    /// binary COPY. In SQL (`rollup_union` grouped by key) the server sorted the parts' rows with
    /// their sketches and united them: about a quarter of a second per block at 1,000 element
    /// types, so the night that ends a block of every level took twice a plain night.
    /// `cleared`: its old rows were deleted already (a stale block being redone). The parts this
    /// rollup wrote are taken from `held` (and the block's rows are kept there in turn), the
    /// others read.
    private func compute(_ block: RollupBlock, appID: Int32, available: Set<RollupBlock>, cleared: Bool,
                         held: inout Held, on connection: PostgresConnection) throws
    {
        var span = RollupSpan.covering(from: block.firstDay, to: block.lastDay, available: available,
                                       belowLevel: block.level)
        let inMemory = held.take(&span)
        let level = Int32(block.level)
        let index = Int32(block.index)
        // Rows of a block not listed in rollup_blocks are left-overs; they give way.
        if !cleared {
            try clear(Self.blockTables, appID: appID, where: "level = \(level) AND block = \(index)", on: connection)
        }
        let read = span.partCount > 0
        let commands = try Self.unite(read ? RollupSpan.rows(.commands,
                                                             columns: ["element_type_id", "command_id", "selections", "user_days",
                                                                       "users", "people"],
                                                             appID: appID, spans: [span], elementIDs: nil) : nil,
                                      adding: inMemory.commands, keyColumns: 2, people: true, on: connection)
        try Self.copy(commands, into: "block_command_usage", counts: "selections, user_days", keyColumns: 2,
                      appID: appID, level: level, index: index, on: connection)
        let elements = try Self.unite(read ? RollupSpan.rows(.elements,
                                                             columns: ["element_type_id", "selections", "dismissals", "users"],
                                                             appID: appID, spans: [span], elementIDs: nil) : nil,
                                      adding: inMemory.elements, keyColumns: 1, people: false, on: connection)
        try Self.copy(elements, into: "block_element_usage", counts: "selections, dismissals", keyColumns: 1,
                      appID: appID, level: level, index: index, on: connection)
        try connection.execute("INSERT INTO rollup_blocks (app_id, level, block) VALUES (\(appID), \(level), \(index))")
        held.keep(block: block, commands: commands, elements: elements)
    }

    /// The rows of the parts a rollup wrote itself, for the blocks above them: each recomputed
    /// day's default rows (`daily_command_usage`, `daily_element_usage`; none for a day without
    /// events) and each computed block's, exactly what reading them back in the rollup's
    /// transaction would give. Kept only when the rollup recomputes at most `heldDaysLimit` days
    /// (`active`), so a backfill never holds its days' rows all at once.
    struct Held {
        let active: Bool
        private var days: [Int: (commands: [UnitedRow], elements: [UnitedRow])] = [:]
        private var blocks: [RollupBlock: (commands: [UnitedRow], elements: [UnitedRow])] = [:]

        init(active: Bool) { self.active = active }

        mutating func keep(day: Int, _ rows: DayRows?) {
            guard active else { return }
            let commands = (rows?.commands ?? []).map { row in
                UnitedRow(key: Int64(row.elementTypeID) << 32 | Int64(UInt32(bitPattern: row.commandID)),
                          sums: (Int(row.selections), Int(row.userDays)), users: row.users, people: row.people)
            }
            let elements = (rows?.elements ?? []).map { row in
                UnitedRow(key: Int64(row.elementTypeID), sums: (Int(row.selections), Int(row.dismissals)), users: row.users,
                          people: [])
            }
            days[day] = (commands, elements)
        }

        mutating func keep(block: RollupBlock, commands: [UnitedRow], elements: [UnitedRow]) {
            guard active else { return }
            blocks[block] = (commands, elements)
        }

        /// Takes the held parts out of `span` and returns their rows, in the order a read of the
        /// span gives the parts (days, then blocks).
        func take(_ span: inout RollupSpan) -> (commands: [UnitedRow], elements: [UnitedRow]) {
            var commands: [UnitedRow] = []
            var elements: [UnitedRow] = []
            for day in span.days { if let rows = days[day] { commands += rows.commands; elements += rows.elements } }
            for block in span.blocks {
                if let rows = blocks[block] { commands += rows.commands; elements += rows.elements }
            }
            span.days.removeAll { days[$0] != nil }
            span.blocks.removeAll { blocks[$0] != nil }
            return (commands, elements)
        }
    }

    /// Writes a block's rows into `table` by binary COPY: app, level, block, the key's
    /// `keyColumns` ids (element type, then command), the two `counts` columns, the sketch and, for
    /// commands, the split by person bucket.
    private static func copy(_ rows: [UnitedRow], into table: String, counts: String, keyColumns: Int, appID: Int32,
                             level: Int32, index: Int32, on connection: PostgresConnection) throws
    {
        let keys = keyColumns == 2 ? "element_type_id, command_id" : "element_type_id"
        try connection.copyInBinary("""
            COPY \(unsafeRaw: table) (app_id, level, block, \(unsafeRaw: keys), \(unsafeRaw: counts), users\(unsafeRaw: keyColumns == 2 ? ", people" : ""))
            FROM STDIN (FORMAT binary)
            """)
        { writer in
            for row in rows {
                writer.beginRow(fields: 6 + keyColumns + (keyColumns == 2 ? 1 : 0))
                writer.append(appID)
                writer.append(Int16(level))
                writer.append(index)
                if keyColumns == 2 {
                    writer.append(Int32(row.key >> 32))
                    writer.append(Int32(truncatingIfNeeded: row.key))
                } else {
                    writer.append(Int32(truncatingIfNeeded: row.key))
                }
                writer.append(Int64(row.sums.0))
                writer.append(Int64(row.sums.1))
                writer.appendBytes(row.users.bytes)
                if keyColumns == 2 { writer.appendBytes(row.people) }
                try writer.endRow()
            }
        }
    }

    /// A block's row: its key (element type id, or element type id << 32 | command id), its two
    /// counts summed, its sketches united, and (commands) its parts' splits summed.
    struct UnitedRow {
        var key: Int64
        var sums: (Int, Int)
        var users: HLLSketch
        var people: [UInt8]
    }

    /// Reads `parts` (rows of `keyColumns` int4 keys, two int8 counts, a sketch and with `people`
    /// a split by person bucket; nil: nothing to read), adds the rows `held` in memory after them,
    /// sums the counts and the splits and unites the sketches per key. Fields by position
    /// (`BinaryCopyRow`): the number of key columns varies, and this is the hot path of the blocks
    /// of days.
    private static func unite(
_ parts: PostgresQuery?, adding held: [UnitedRow], keyColumns: Int, people: Bool,
                              on connection: PostgresConnection) throws -> [UnitedRow]
    {
        var totals = PartTotals(countColumns: 2, parts: 1)
        var splits = PeopleSums()
        func field<T>(_ value: T?, _ row: borrowing BinaryCopyRow) throws -> T {
            guard let value else { throw StorageError(.database, "a rollup row (\(row.number)) has NULL where a value is stored") }
            return value
        }
        // The held sketches' bytes, at addresses that stay valid until the unions are done.
        let heldSketches = PreviewSketches(held, sketch: \.users)
        defer { heldSketches.release() }
        let addHeld = { () throws -> [HLLSketch] in
            for (index, row) in held.enumerated() {
                let slot = totals.slot(of: row.key)
                totals.add(row.sums.0, column: 0, part: 0, slot: slot)
                totals.add(row.sums.1, column: 1, part: 0, slot: slot)
                totals.addSketch(heldSketches.bytes(index), slot: slot)
                if people { try row.people.withUnsafeBytes { try splits.add($0, slot: slot) } }
            }
            return try totals.sketches(workers: RankingQuery.cores)
        }
        let sketches = try parts.map { parts in
            try connection.queryBinary("SELECT * FROM (\(parts)) AS p", { row in
                var key = Int64(try field(row.int32(0), row))
                if keyColumns == 2 { key = key << 32 | Int64(UInt32(bitPattern: try field(row.int32(1), row))) }
                let slot = totals.slot(of: key)
                totals.add(Int(try field(row.int64(keyColumns), row)), column: 0, part: 0, slot: slot)
                totals.add(Int(try field(row.int64(keyColumns + 1), row)), column: 1, part: 0, slot: slot)
                if let users = row.rawBytes(keyColumns + 2) { totals.addSketch(users, slot: slot) }
                if people { try splits.add(row.rawBytes(keyColumns + 3), slot: slot) }
            }, then: addHeld)
        } ?? addHeld()
        return totals.keys.indices.map { slot in
            UnitedRow(key: totals.keys[slot], sums: (totals.sum(column: 0, part: 0, slot: slot),
                                                   totals.sum(column: 1, part: 0, slot: slot)),
                      users: sketches[slot], people: people ? splits.encoded(slot) : [])
        }
    }
}
