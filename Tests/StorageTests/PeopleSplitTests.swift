import CivilTime
import Events
import Foundation
import Menus
import Nightly
import Postgres
import Ranking
import Storage
import Testing
import TestSupport

/// The split of each command's use by person bucket (sql/0020): stored per event at ingest, counted
/// into every command rollup row, summed into blocks and windows, and the same as the database-free
/// run (`MemoryNightlyStore`) counts from the same events.
@Suite(TestDatabase.enabled) struct PeopleSplitTests {
    /// Per (day, element type, command) of the app's default rows, the split counted straight from
    /// the non-test events: each event's bucket is the stored one, or for a row stored before
    /// buckets were, that of its pseudonym (or of its event id without a user); user-days per
    /// bucket are the distinct (person, bucket) pairs. Expects `daily_command_usage.people` to be
    /// exactly that.
    static func compareSplitsWithEvents(app: Int32, on connection: PostgresConnection) throws {
        struct Key: Hashable { var day: Int32; var element: Int32; var command: Int32 }
        struct Pair: Hashable { var person: Int64; var bucket: Int }
        var picks: [Key: [Int64]] = [:]
        var pairs: [Key: Set<Pair>] = [:]
        for row in try connection.query("""
            SELECT (day - DATE '1970-01-01')::int4, element_type_id, command_id, user_hash, person_bucket,
                   ('x' || translate(left(event_id::text, 18), '-', ''))::bit(64)::bigint,
                   ('x' || right(translate(event_id::text, '-', ''), 16))::bit(64)::bigint
            FROM \(unsafeRaw: RollupStoreTests.nonTestEvents) WHERE app_id = \(app) AND command_id IS NOT NULL
            """)
        {
            let key = Key(day: try row.decode(at: 0), element: try row.decode(at: 1), command: try row.decode(at: 2))
            let user: Int64? = try row.decode(at: 3)
            let high = UInt64(bitPattern: try row.decode(Int64.self, at: 5))
            let low = UInt64(bitPattern: try row.decode(Int64.self, at: 6))
            let stored: Int16? = try row.decode(at: 4)
            let bucket = stored.map(Int.init)
                ?? user.map { PersonBucket.of(pseudonym: $0) } ?? PersonBucket.of(eventIDHigh: high, low: low)
            picks[key, default: [Int64](repeating: 0, count: PersonBucket.count)][bucket] += 1
            pairs[key, default: []].insert(Pair(person: user ?? Int64(bitPattern: high), bucket: bucket))
        }
        var actual: [Key: [UInt8]] = [:]
        for row in try connection.query("""
            SELECT (day - DATE '1970-01-01')::int4, element_type_id, command_id, encode(people, 'hex')
            FROM daily_command_usage WHERE app_id = \(app)
            """)
        {
            let key = Key(day: try row.decode(at: 0), element: try row.decode(at: 1), command: try row.decode(at: 2))
            actual[key] = hexBytes(try row.decode(String.self, at: 3))
        }
        #expect(Set(actual.keys) == Set(picks.keys))
        for (key, counts) in picks {
            var userDays = [Int64](repeating: 0, count: PersonBucket.count)
            for pair in pairs[key]! { userDays[pair.bucket] += 1 }
            #expect(actual[key] == PeopleCounts.encode(selections: counts, userDays: userDays), "\(key)")
        }
    }

    /// Every stored block's split is the sum of its days' (`block_command_usage.people`).
    static func compareBlockSplitsWithDays(app: Int32, on connection: PostgresConnection) throws -> Int {
        var blocks = 0
        for block in try connection.query("SELECT level, block FROM rollup_blocks WHERE app_id = \(app)") {
            let level = Int(try block.decode(Int16.self, at: 0))
            let index = Int(try block.decode(Int32.self, at: 1))
            let first = index << level
            let last = first + (1 << level) - 1
            var sums: [String: PeopleCounts] = [:]
            for row in try connection.query("""
                SELECT element_type_id || '/' || command_id, encode(people, 'hex') FROM daily_command_usage
                WHERE app_id = \(app) AND day BETWEEN DATE '1970-01-01' + \(Int32(first)) AND DATE '1970-01-01' + \(Int32(last))
                """)
            {
                let split = try #require(PeopleCounts(encoded: hexBytes(try row.decode(String.self, at: 1))))
                sums[try row.decode(String.self, at: 0), default: .zero].add(split)
            }
            var stored: [String: PeopleCounts] = [:]
            for row in try connection.query("""
                SELECT element_type_id || '/' || command_id, encode(people, 'hex') FROM block_command_usage
                WHERE app_id = \(app) AND level = \(Int16(level)) AND block = \(Int32(index))
                """)
            {
                stored[try row.decode(String.self, at: 0)] = try #require(PeopleCounts(encoded: hexBytes(try row.decode(String.self, at: 1))))
            }
            #expect(stored == sums, "block \(level)/\(index)")
            blocks += 1
        }
        return blocks
    }

    static func hexBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            out.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    /// Events as `menurank import` reads them: over 20 days, three element types, 60 people and
    /// events without a user, some dismissals.
    static func lines(lastDay: Int) -> [String] {
        var generator = SplitMix64(seed: 27)
        var lines: [String] = []
        for index in 0..<3_000 {
            let day = lastDay - Int(generator.next() % 20)
            let seconds = Int(generator.next() % 86_400)
            let time = CivilDate(dayNumber: day).description
                + String(format: "T%02d:%02d:%02dZ", seconds / 3_600, seconds / 60 % 60, seconds % 60)
            let element = ["mail.message", "mail.mailbox", "mail.draft"][Int(generator.next() % 3)]
            let pick = generator.next() % 12
            let command = pick == 0 ? nil : ["reply", "forward", "archive", "delete", "flag"][Int(pick % 5)]
            let user = generator.next() % 10 == 0 ? nil : "user-\(generator.next() % 60)"
            var line = "{\"id\":\"00000000-0000-4000-8000-" + String(format: "%012x", index)
                + "\",\"time\":\"\(time)\",\"element_type\":\"\(element)\""
            line += command.map { ",\"command\":\"\($0)\",\"kind\":\"select\"" } ?? ",\"kind\":\"dismiss\""
            if let user { line += ",\"user\":\"\(user)\"" }
            lines.append(line + "}")
        }
        return lines
    }

    /// The database path (the import's preparer and the writer, the rollup, the ranking reads)
    /// and the database-free one (`MemoryNightlyStore`, as `recommend --manifest --events` counts) give
    /// every command the same split over the window: summed by the window read (through blocks),
    /// per day with a half-life, from the segment rows, and through the rollup's preview while it
    /// writes.
    @Test func theDatabaseAndTheFileRunGiveTheSameSplits() throws {
        try StorageFixture.with(prefix: "peoplesplit") { fixture in
            let asOf = Int(Rows.today) - 1
            let text = Self.lines(lastDay: asOf).joined(separator: "\n") + "\n"
            let batch = JSONLinesDecoder().decode(Array(text.utf8))
            try #require(batch.rejections.isEmpty && batch.events.count == 3_000)

            let app = try AppStore(pool: fixture.pool).create(name: "mail").app
            let preparer = EventPreparer(dictionaries: Dictionaries(pool: fixture.pool, limits: DictionaryLimits()))
            let prepared = try preparer.prepare(batch.events, appID: app.appID, hashSecret: app.hashSecret)
            try #require(prepared.rejections.isEmpty)
            let writer = fixture.makeWriter()
            defer { writer.shutdown() }
            #expect(try writer.write(prepared.rows).accepted == 3_000)
            let connection = try fixture.connect()
            _ = try RollupStore().rollUp(appID: app.appID, on: connection)
            try Self.compareSplitsWithEvents(app: app.appID, on: connection)
            #expect(try Self.compareBlockSplitsWithDays(app: app.appID, on: connection) > 0)

            let store = MemoryNightlyStore(manifest: Manifest(app: "mail", version: "1", commands: [:], menus: [:]))
            for event in batch.events {
                store.add(id: event.id.description, day: event.partitionDay, elementType: event.elementType,
                          command: event.kind == .dismiss ? nil : event.command, user: event.user)
            }

            // The window's sums (one row per command on the last day).
            let day = CivilDate(dayNumber: asOf)
            let window = RankingWindow(asOf: day, length: 28)
            // The memory store's days one by one (with a half-life, each day comes on its own).
            let daysInMemory = Dictionary(uniqueKeysWithValues: store.activities(
                in: RankingWindow(asOf: day, length: 28, halfLife: 7)).map { ($0.elementType, $0.days) })
            var expected: [String: PeopleCounts] = [:]
            for (element, rows) in daysInMemory {
                for row in rows { expected["\(element) \(row.command)", default: .zero].add(row.people) }
            }
            func sums(_ activities: [ElementTypeActivity]) -> [String: PeopleCounts] {
                var out: [String: PeopleCounts] = [:]
                for activity in activities {
                    for row in activity.days { out["\(activity.elementType) \(row.command)", default: .zero].add(row.people) }
                }
                return out
            }
            let read = try RankingQuery(appID: app.appID, window: window).activities(on: connection)
            #expect(read.allSatisfy { $0.days.allSatisfy { $0.day == day && $0.people.isKnown } })
            #expect(sums(read) == expected)
            #expect(expected.values.contains { $0.userDays.contains { $0 > 1 } })

            // Day by day: with a half-life.
            let perDay = { (rows: [String: [CommandDay]]) -> [String: PeopleCounts] in
                var out: [String: PeopleCounts] = [:]
                for (element, days) in rows { for row in days { out["\(element) \(row.day) \(row.command)"] = row.people } }
                return out
            }
            let expectedDays = perDay(daysInMemory)
            // The memory store reads its window as the rollups' is read: the same sums.
            #expect(sums(store.activities(in: window)) == expected)
            let decayed = RankingWindow(asOf: day, length: 28, halfLife: 7)
            let daily = try RankingQuery(appID: app.appID, window: decayed).activities(on: connection)
            #expect(perDay(Dictionary(uniqueKeysWithValues: daily.map { ($0.elementType, $0.days) })) == expectedDays)

            // From the per-segment rows (a filter's reading): every segment of the app.
            let segments = try connection.query("SELECT segment_id FROM segments WHERE app_id = \(app.appID)")
                .map { try $0.decode(Int32.self, at: 0) }
            let filtered = try RankingQuery(appID: app.appID, window: window, segments: segments).activities(on: connection)
            #expect(sums(filtered) == expected)

            // The night's reading while the rollup writes: the last day recomputed and previewed.
            try connection.execute("INSERT INTO rollup_queue (app_id, day) VALUES (\(app.appID), DATE '1970-01-01' + \(Int32(asOf)))")
            let helper = try fixture.connect()
            let query = RankingQuery(appID: app.appID, window: window, includePrevious: false)
            let (_, previewed) = try RollupStore().rollUp(appID: app.appID, on: connection, alongside: helper,
                                                          previewing: window.days) { preview in
                try query.activities(on: helper, replacing: preview)
            }
            let activities = try #require(previewed).get()
            #expect(sums(activities) == expected)
        }
    }

    /// Events stored before buckets were (person_bucket NULL) are counted in the bucket of their
    /// pseudonym, or of their event id without a user (the bucket ingestion gives such an event);
    /// a day mixing them with new events is exact all the same, and so are its blocks.
    @Test func rowsWithoutAStoredBucketFallBackToThePseudonym() throws {
        try StorageFixture.with(prefix: "peoplefallback") { fixture in
            let writer = fixture.makeWriter()
            defer { writer.shutdown() }
            var rows: [EventRow] = []
            for day in (0..<6).map({ Rows.today - 1 - Int32($0) }) {
                var made = Rows.make(appID: 1, count: 400, seed: UInt64(day), day: day)
                for index in made.indices {
                    made[index].userHash = index % 9 == 0 ? nil : Int64(index % 37) * 1_000_003
                    made[index].commandID = made[index].commandID.map { _ in Int32(1 + index % 4) }
                    // A third of the events as an old daemon stored them; the others with the bucket
                    // ingestion computes (here: that of the person, as a raw id would give one).
                    if index % 3 == 0 {
                        made[index].personBucket = nil
                    } else if let user = made[index].userHash {
                        made[index].personBucket = Int16((user / 1_000_003) % 64)
                    } else {
                        made[index].personBucket = Int16(PersonBucket.of(eventIDHigh: made[index].eventIDHigh,
                                                                         low: made[index].eventIDLow))
                    }
                }
                rows += made
            }
            #expect(try writer.write(rows).accepted == rows.count)
            let connection = try fixture.connect()
            _ = try RollupStore().rollUp(appID: 1, on: connection)
            try Self.compareSplitsWithEvents(app: 1, on: connection)
            #expect(try Self.compareBlockSplitsWithDays(app: 1, on: connection) > 0)
        }
    }
}
