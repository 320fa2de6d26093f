import CivilTime
import Foundation
import Postgres
import Ranking
import Storage
import Testing
import TestSupport

/// Block rollups (sql/0005): how a run of days is cut into stored blocks, that the rollup keeps
/// exactly the blocks that ended, that a block equals the union of its days (its sketches byte for
/// byte `hll_union_agg` of the days'), and that rankings read
/// through blocks equal rankings read from the days alone.
@Suite struct RollupSpanTests {
    static func allBlocks(from: Int, to: Int) -> Set<RollupBlock> {
        var out = Set<RollupBlock>()
        for level in RollupBlock.levels {
            for index in (from >> level)...(to >> level) { out.insert(RollupBlock(level: level, index: index)) }
        }
        return out
    }

    /// The days a span covers, each once.
    static func coveredDays(_ span: RollupSpan) -> [Int] {
        (span.days + span.blocks.flatMap { Array($0.firstDay...$0.lastDay) }).sorted()
    }

    @Test func blockBounds() {
        let block = RollupBlock(level: 3, containing: 20_786)
        #expect(block.index == 2_598 && block.firstDay == 20_784 && block.lastDay == 20_791 && block.length == 8)
        #expect(block.halves == [RollupBlock(level: 2, index: 5_196), RollupBlock(level: 2, index: 5_197)])
        #expect(RollupBlock(level: 1, index: 7).halves == nil)
        #expect(RollupBlock(level: 2, containing: -1) == RollupBlock(level: 2, index: -1))
        #expect(RollupBlock(level: 2, index: -1).firstDay == -4 && RollupBlock(level: 2, index: -1).lastDay == -1)
    }

    @Test func twentyEightDaysWithEveryBlockStored() {
        // 2026-11-02 ... 2026-11-29 = days 20759 ... 20786.
        let span = RollupSpan.covering(from: 20_759, to: 20_786, available: Self.allBlocks(from: 20_700, to: 20_800))
        #expect(span.days == [20_759, 20_786])
        #expect(span.blocks == [RollupBlock(level: 3, index: 2_595), RollupBlock(level: 4, index: 1_298),
                                RollupBlock(level: 1, index: 10_392)])
        #expect(Self.coveredDays(span) == Array(20_759...20_786))
    }

    @Test func missingBlocksAreReadAsSmallerBlocksOrDays() {
        var available = Self.allBlocks(from: 20_700, to: 20_800)
        available.remove(RollupBlock(level: 4, index: 1_298))    // 20768 ... 20783
        available.remove(RollupBlock(level: 1, index: 10_392))   // 20784 ... 20785
        let span = RollupSpan.covering(from: 20_759, to: 20_786, available: available)
        #expect(span.blocks.contains(RollupBlock(level: 3, index: 2_596)))
        #expect(span.blocks.contains(RollupBlock(level: 3, index: 2_597)))
        #expect(span.days == [20_759, 20_784, 20_785, 20_786])
        #expect(Self.coveredDays(span) == Array(20_759...20_786))

        let none = RollupSpan.covering(from: 5, to: 9, available: [])
        #expect(none.days == [5, 6, 7, 8, 9] && none.blocks.isEmpty)
        #expect(RollupSpan.covering(from: 9, to: 8, available: available).partCount == 0)
        let below = RollupSpan.covering(from: 20_768, to: 20_783, available: Self.allBlocks(from: 20_700, to: 20_800),
                                        belowLevel: 4)
        #expect(below.blocks == [RollupBlock(level: 3, index: 2_596), RollupBlock(level: 3, index: 2_597)])
    }

    /// Any range, any set of stored blocks: the parts cover the range exactly once, and with every
    /// block stored a window of up to 40 days takes at most 2 x 4 blocks and 2 single days.
    @Test func partsCoverEveryRangeExactlyOnce() {
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        let all = Self.allBlocks(from: -40, to: 200)
        for _ in 0..<500 {
            let from = next(150) - 30
            let to = from + next(40)
            let some = all.filter { _ in next(3) != 0 }
            let span = RollupSpan.covering(from: from, to: to, available: some)
            #expect(Self.coveredDays(span) == Array(from...to))
            #expect(span.blocks.allSatisfy { some.contains($0) })
            let full = RollupSpan.covering(from: from, to: to, available: all)
            #expect(Self.coveredDays(full) == Array(from...to))
            #expect(full.blocks.count <= 8 && full.days.count <= 2)
        }
    }
}

@Suite(TestDatabase.enabled) struct RollupBlockTests {
    /// Every stored block against its days: per command and per element type the same selections
    /// (and dismissals) and the same distinct users as the union of the daily rows; no block rows
    /// without their `rollup_blocks` entry.
    static func compareBlocksWithDays(app: Int32, on connection: PostgresConnection) throws {
        let commandMismatches: Int = try connection.query("""
            WITH b AS (
                SELECT level, block, element_type_id, command_id, selections, user_days,
                       hll_cardinality(users) AS users, users AS sketch
                FROM block_command_usage WHERE app_id = \(app)
            ), d AS (
                SELECT r.level, r.block, u.element_type_id, u.command_id, sum(u.selections) AS selections,
                       sum(u.user_days) AS user_days, hll_cardinality(hll_union_agg(u.users)) AS users,
                       hll_union_agg(u.users) AS sketch
                FROM rollup_blocks r
                JOIN daily_command_usage u ON u.app_id = r.app_id
                     AND (u.day - DATE '1970-01-01') BETWEEN r.block * (1 << r.level) AND (r.block + 1) * (1 << r.level) - 1
                WHERE r.app_id = \(app)
                GROUP BY 1, 2, 3, 4
            )
            SELECT count(*) FROM b FULL JOIN d USING (level, block, element_type_id, command_id)
            WHERE b.selections IS DISTINCT FROM d.selections OR b.users IS DISTINCT FROM d.users
               OR b.user_days IS DISTINCT FROM d.user_days OR b.sketch::text IS DISTINCT FROM d.sketch::text
            """)[0].decode(at: 0)
        #expect(commandMismatches == 0)
        let elementMismatches: Int = try connection.query("""
            WITH b AS (
                SELECT level, block, element_type_id, selections, dismissals, hll_cardinality(users) AS users,
                       users AS sketch
                FROM block_element_usage WHERE app_id = \(app)
            ), d AS (
                SELECT r.level, r.block, u.element_type_id, sum(u.selections) AS selections,
                       sum(u.dismissals) AS dismissals, hll_cardinality(hll_union_agg(u.users)) AS users,
                       hll_union_agg(u.users) AS sketch
                FROM rollup_blocks r
                JOIN daily_element_usage u ON u.app_id = r.app_id
                     AND (u.day - DATE '1970-01-01') BETWEEN r.block * (1 << r.level) AND (r.block + 1) * (1 << r.level) - 1
                WHERE r.app_id = \(app)
                GROUP BY 1, 2, 3
            )
            SELECT count(*) FROM b FULL JOIN d USING (level, block, element_type_id)
            WHERE b.selections IS DISTINCT FROM d.selections OR b.dismissals IS DISTINCT FROM d.dismissals
               OR b.users IS DISTINCT FROM d.users OR b.sketch::text IS DISTINCT FROM d.sketch::text
            """)[0].decode(at: 0)
        #expect(elementMismatches == 0)
        let orphans: Int = try connection.query("""
            SELECT (SELECT count(*) FROM block_command_usage b WHERE b.app_id = \(app) AND NOT EXISTS (
                        SELECT 1 FROM rollup_blocks r WHERE r.app_id = b.app_id AND r.level = b.level AND r.block = b.block))
                 + (SELECT count(*) FROM block_element_usage b WHERE b.app_id = \(app) AND NOT EXISTS (
                        SELECT 1 FROM rollup_blocks r WHERE r.app_id = b.app_id AND r.level = b.level AND r.block = b.block))
            """)[0].decode(at: 0)
        #expect(orphans == 0)
    }

    static func storedBlocks(app: Int32, on connection: PostgresConnection) throws -> Set<RollupBlock> {
        Set(try connection.query("SELECT level, block FROM rollup_blocks WHERE app_id = \(app)").map {
            RollupBlock(level: Int(try $0.decode(Int16.self, at: 0)), index: Int(try $0.decode(Int32.self, at: 1)))
        })
    }

    @Test func blocksThatEndedAreKeptAndReadsEqualTheDays() throws {
        try TestDatabase.withSchema(prefix: "rollupblocks") { schema in
            let conn = try schema.connect()
            let mail = try LayoutFixtures.mail(on: conn)
            let (app, message, mailbox, reply, forward) = (mail.app, mail.message, mail.mailbox, mail.reply, mail.forward)
            let first = try #require(CivilDate(parsing: "2026-10-20")?.dayNumber)
            // 40 days of use, users overlapping across days (so a union is not a sum).
            for offset in 0..<40 {
                let day = CivilDate(dayNumber: first + offset).description
                try LayoutFixtures.insertEvents(app: app, day: day, elementType: message, command: reply,
                                                count: 5 + offset % 7, users: (offset % 9)...(offset % 9 + 6),
                                                withoutUser: offset % 3, on: conn)
                if offset % 3 == 0 {
                    try LayoutFixtures.insertEvents(app: app, day: day, elementType: message, command: forward,
                                                    count: 2, users: 20...(21 + offset % 4), on: conn)
                }
                if offset % 5 == 1 {
                    try LayoutFixtures.insertEvents(app: app, day: day, elementType: mailbox, command: nil,
                                                    count: 3, users: 30...32, on: conn)
                }
                // Many people: sketches past the explicit list (sparse, then full registers), in
                // days and in the blocks united from them.
                if offset % 4 == 2 {
                    try LayoutFixtures.insertEvents(app: app, day: day, elementType: mailbox, command: forward,
                                                    count: 30 + 400 * (offset % 8), users: (100 + 37 * offset)...(2600 + 53 * offset),
                                                    on: conn)
                }
            }
            let store = RollupStore()
            let outcome = try store.rollUp(appID: app, on: conn)
            let forms: [String] = try conn.query("""
                SELECT DISTINCT hll_type(users)::text FROM block_command_usage WHERE app_id = \(app) ORDER BY 1
                """).map { try $0.decode(at: 0) }
            // hll_type: 2 EXPLICIT, 3 SPARSE, 4 FULL.
            #expect(forms.contains("2") && forms.contains { $0 == "3" || $0 == "4" }, "storage forms of the blocks: \(forms)")
            let newest = first + 39    // 2026-11-28
            let stored = try Self.storedBlocks(app: app, on: conn)
            #expect(Set(outcome.blocks) == stored)
            // Every block that ended by the newest day within the horizon, none that did not end.
            #expect(stored.allSatisfy { $0.lastDay <= newest })
            #expect(stored.contains(RollupBlock(level: 4, containing: first + 20)))
            #expect(!stored.contains(RollupBlock(level: 1, containing: newest)) || (newest + 1) % 2 == 0)
            for level in RollupBlock.levels {
                let block = RollupBlock(level: level, containing: newest - 20)
                #expect(stored.contains(block))
            }
            try Self.compareBlocksWithDays(app: app, on: conn)

            func read(_ asOf: Int, _ length: Int, halfLife: Double? = nil) throws -> [ElementTypeActivity] {
                try RankingQuery(appID: app, window: RankingWindow(asOf: CivilDate(dayNumber: asOf), length: length, halfLife: halfLife))
                    .activities(on: conn)
            }
            let windows = [(newest, 28), (newest - 3, 28), (newest - 11, 14), (newest, 7), (newest - 5, 9), (newest, 60)]
            let withBlocks = try windows.map { try read($0.0, $0.1) }
            let decayed = try read(newest, 28, halfLife: 7)

            // A late event for an old day: the blocks holding it are recomputed, the others kept.
            let late = first + 17
            try LayoutFixtures.insertEvents(app: app, day: CivilDate(dayNumber: late).description, elementType: message, command: reply,
                                            count: 4, users: 40...43, on: conn)
            let again = try store.rollUp(appID: app, on: conn)
            #expect(again.days == [CivilDate(dayNumber: late)])
            #expect(Set(again.blocks) == Set(RollupBlock.levels.map { RollupBlock(level: $0, containing: late) }))
            #expect(try Self.storedBlocks(app: app, on: conn) == stored)
            try Self.compareBlocksWithDays(app: app, on: conn)
            let afterLate = try windows.map { try read($0.0, $0.1) }
            #expect(afterLate[0] != withBlocks[0])    // the late events count

            // Shared out over a second connection (odd element type ids there), the same reads.
            let helper = try schema.connect()
            for ((asOf, length), alone) in zip(windows, afterLate) {
                let window = RankingWindow(asOf: CivilDate(dayNumber: asOf), length: length)
                #expect(try RankingQuery(appID: app, window: window).activities(on: conn, alongside: helper) == alone)
            }
            let decayedWindow = RankingWindow(asOf: CivilDate(dayNumber: newest), length: 28, halfLife: 7)
            #expect(try RankingQuery(appID: app, window: decayedWindow).activities(on: conn, alongside: helper)
                == RankingQuery(appID: app, window: decayedWindow).activities(on: conn))

            // Without any block (as before sql/0005) the reads are the same.
            try conn.execute("DELETE FROM rollup_blocks")
            #expect(try windows.map { try read($0.0, $0.1) } == afterLate)
            #expect(try read(newest, 28, halfLife: 7).map(\.elementType) == decayed.map(\.elementType))

            // And the blocks come back with the next rollup that recomputes a day.
            try LayoutFixtures.insertEvents(app: app, day: CivilDate(dayNumber: newest).description, elementType: mailbox, command: nil,
                                            count: 1, users: 30...30, on: conn)
            let refill = try store.rollUp(appID: app, on: conn)
            #expect(Set(refill.blocks) == stored)
            try Self.compareBlocksWithDays(app: app, on: conn)
        }
    }

    /// Night after night, one day a rollup: each block that ends takes the day it recomputed and
    /// the blocks it computed from memory (`RollupStore.Held`), the rest from the tables, and comes
    /// out as the union of its days all the same; also when a recomputed day has no events left
    /// (its rows gone, a held part with no rows) and when two days are recomputed at once.
    @Test func blocksOfNightlyRollupsTakeWhatTheRollupWroteAndEqualTheDays() throws {
        try TestDatabase.withSchema(prefix: "rollupheld") { schema in
            let conn = try schema.connect()
            let mail = try LayoutFixtures.mail(on: conn)
            let (app, message, mailbox, reply, forward) = (mail.app, mail.message, mail.mailbox, mail.reply, mail.forward)
            // 2026-10-10 starts a block of 16 days, so 20 nights end blocks of every level.
            let first = try #require(CivilDate(parsing: "2026-10-10")?.dayNumber)
            #expect(first % 16 == 0)
            let store = RollupStore()
            var computed = Set<RollupBlock>()
            for offset in 0..<20 {
                let day = CivilDate(dayNumber: first + offset).description
                try LayoutFixtures.insertEvents(app: app, day: day, elementType: message, command: reply,
                                                count: 4 + offset % 5, users: (offset % 7)...(offset % 7 + 5),
                                                withoutUser: offset % 2, on: conn)
                if offset % 3 != 1 {
                    try LayoutFixtures.insertEvents(app: app, day: day, elementType: mailbox, command: offset % 2 == 0 ? forward : nil,
                                                    count: 20 + 90 * (offset % 4), users: (50 + 11 * offset)...(250 + 31 * offset),
                                                    on: conn)
                }
                if offset == 9 {
                    // A day whose events are gone by its night: no rows, and the blocks above it still hold the others.
                    try conn.execute("DELETE FROM events WHERE app_id = \(app) AND day = \(day)::date")
                }
                if offset == 14 {
                    // A late event for the day before: two days in one rollup.
                    try LayoutFixtures.insertEvents(app: app, day: CivilDate(dayNumber: first + 13).description, elementType: message,
                                                    command: forward, count: 3, users: 60...62, on: conn)
                }
                let outcome = try store.rollUp(appID: app, on: conn)
                computed.formUnion(outcome.blocks)
                try Self.compareBlocksWithDays(app: app, on: conn)
            }
            // Every level was computed from held parts at least once.
            for level in RollupBlock.levels {
                #expect(computed.contains(RollupBlock(level: level, containing: first)), "level \(level)")
            }
            let empty: Int = try conn.query("""
                SELECT count(*) FROM daily_command_usage WHERE app_id = \(app) AND day = \(CivilDate(dayNumber: first + 9).description)::date
                """)[0].decode(at: 0)
            #expect(empty == 0)
        }
    }
}
