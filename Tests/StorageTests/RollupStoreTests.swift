import CivilTime
import Foundation
import Postgres
import Storage
import Synchronization
import Testing
import TestSupport
import Locking

@Suite(TestDatabase.enabled) struct RollupStoreTests {
    /// The non-test events (sql/0014: the default rollups leave test events out), as a FROM item
    /// named `events`.
    static let nonTestEvents = """
        (SELECT e.* FROM events e LEFT JOIN contexts c ON c.app_id = e.app_id AND c.context_id = e.context_id
         WHERE NOT COALESCE(c.is_test, false)) AS events
        """

    /// The rollups against a direct count of the events: selections, dismissals and user-days
    /// (each day's distinct people, an event without a user being a person of its own) exactly,
    /// distinct people within 3% (at least 1) of the exact count in the hll sketches. The default
    /// rollups count the non-test events; the segment rollups are compared too
    /// (`compareSegmentsWithEvents`), and so is each row's split by person bucket
    /// (`PeopleSplitTests.compareSplitsWithEvents`).
    static func compareWithEvents(app: Int32, on connection: PostgresConnection) throws {
        try SegmentRollupTests.compareSegmentsWithEvents(app: app, on: connection)
        try PeopleSplitTests.compareSplitsWithEvents(app: app, on: connection)
        let person = "COALESCE(user_hash::text, event_id::text)"
        let expected = try connection.query("""
            SELECT day::text, element_type_id, command_id, count(*), count(DISTINCT \(unsafeRaw: person)),
                   count(DISTINCT user_hash) + count(*) FILTER (WHERE user_hash IS NULL)
            FROM \(unsafeRaw: nonTestEvents) WHERE app_id = \(app) AND command_id IS NOT NULL
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            """)
        let actual = try connection.query("""
            SELECT day::text, element_type_id, command_id, selections, hll_cardinality(users), user_days
            FROM daily_command_usage WHERE app_id = \(app) ORDER BY 1, 2, 3
            """)
        #expect(expected.count == actual.count)
        #expect(expected.count > 0)
        for (e, a) in zip(expected, actual) {
            #expect(try e.decode(String.self, at: 0) == a.decode(String.self, at: 0))
            #expect(try e.decode(Int32.self, at: 1) == a.decode(Int32.self, at: 1))
            #expect(try e.decode(Int32.self, at: 2) == a.decode(Int32.self, at: 2))
            #expect(try e.decode(Int.self, at: 3) == a.decode(Int.self, at: 3))
            let exact = Double(try e.decode(Int.self, at: 4))
            let estimate = try a.decode(Double.self, at: 4)
            #expect(abs(exact - estimate) <= max(1, exact * 0.03))
            #expect(try e.decode(Int.self, at: 5) == a.decode(Int.self, at: 5))
            #expect(try e.decode(Int.self, at: 4) == e.decode(Int.self, at: 5))
        }
        let elementsExpected = try connection.query("""
            SELECT day::text, element_type_id, count(command_id), count(*) - count(command_id),
                   count(DISTINCT \(unsafeRaw: person))
            FROM \(unsafeRaw: nonTestEvents) WHERE app_id = \(app) GROUP BY 1, 2 ORDER BY 1, 2
            """)
        let elementsActual = try connection.query("""
            SELECT day::text, element_type_id, selections, dismissals, hll_cardinality(users)
            FROM daily_element_usage WHERE app_id = \(app) ORDER BY 1, 2
            """)
        #expect(elementsExpected.count == elementsActual.count)
        for (e, a) in zip(elementsExpected, elementsActual) {
            #expect(try e.decode(String.self, at: 0) == a.decode(String.self, at: 0))
            #expect(try e.decode(Int32.self, at: 1) == a.decode(Int32.self, at: 1))
            #expect(try e.decode(Int.self, at: 2) == a.decode(Int.self, at: 2))
            #expect(try e.decode(Int.self, at: 3) == a.decode(Int.self, at: 3))
            let exact = Double(try e.decode(Int.self, at: 4))
            #expect(abs(exact - (try a.decode(Double.self, at: 4))) <= max(1, exact * 0.03))
        }
    }

    @Test func rollsUpQueuedDaysOnlyAndRecomputesLateDays() throws {
        try TestDatabase.withSchema(prefix: "rollup") { schema in
            let conn = try schema.connect()
            try LayoutFixtures.migrate(conn)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: conn)
            let store = RollupStore()

            #expect(try store.rollUp(appID: app, on: conn).days.isEmpty)
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-28", elementType: message, command: reply,
                                            count: 30, users: 1...10, on: conn)
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-29", elementType: message, command: nil,
                                            count: 5, users: 1...5, on: conn)
            let first = try store.rollUp(appID: app, on: conn)
            #expect(first.days.map(\.description) == ["2026-11-28", "2026-11-29"])
            #expect(first.commandRows == 1 && first.elementRows == 2)
            #expect(try store.rollUp(appID: app, on: conn).days.isEmpty)

            // A late event for an old day re-queues that day alone, which is recomputed, not added to.
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-28", elementType: message, command: reply,
                                            count: 4, users: 11...12, withoutUser: 1, on: conn)
            let late = try store.rollUp(appID: app, on: conn)
            #expect(late.days.map(\.description) == ["2026-11-28"])
            let row = try conn.query("""
                SELECT selections, hll_cardinality(users), user_days FROM daily_command_usage WHERE day = '2026-11-28'
                """)[0]
            // Users 1-10, then 11 and 12, and one event without a user: a person of its own.
            #expect(try row.decode(Int.self, at: 0) == 34)
            #expect(try row.decode(Double.self, at: 1) == 13)
            #expect(try row.decode(Int.self, at: 2) == 13)
            try Self.compareWithEvents(app: app, on: conn)
        }
    }

    /// Ingestion (events and queue rows committed together, as the event writer does) and
    /// repeated rollups from two threads run at the same time; afterwards the rollups equal a
    /// direct count of the events, the default rollups and the segment rollups alike. The events
    /// come in several contexts (test and not, two platforms, several app versions), and new
    /// contexts appear while the rollups run, as new app versions ship. Every rollup reads its days
    /// in two halves on two connections in one snapshot (`RollupStore.splitFromPages`; the rollup in
    /// one read is checked under the event writer in `RollupUnderWriterTests`), so every day ingested,
    /// taken by some rollup, was read in halves (on Citus none is: there a day is read in one).
    @Test func exactUnderConcurrentIngestion() throws {
        try TestDatabase.withSchema(prefix: "rollupconc") { schema in
            let setup = try schema.connect()
            try LayoutFixtures.migrate(setup)
            let app = try LayoutFixtures.createApp("mail", on: setup)
            var elementTypes: [Int32] = []
            for name in ["mail.message", "mail.mailbox", "mail.attachment"] {
                elementTypes.append(try LayoutFixtures.id(name, in: "element_types", app: app, on: setup))
            }
            var commands: [Int32] = []
            for name in ["reply", "forward", "archive", "delete"] {
                commands.append(try LayoutFixtures.id(name, in: "commands", app: app, on: setup))
            }
            let days = ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]
            try TestDatabase.ensureEventPartitions(through: "2026-11-29", days: 5, on: setup)
            var contexts: [Int32?] = [nil]
            for (isTest, platform, version) in [(false, "iOS 18.1", "4.9"), (false, "Android 14", "4.9"),
                                                (true, "iOS 18.2", "4.10")] {
                contexts.append(try LayoutFixtures.context(app: app, isTest: isTest, platform: platform, appVersion: version,
                                                           on: setup))
            }
            let contextList = contexts

            let failures = Locked<[String]>([])
            let ingesting = Atomic<Bool>(true)
            let rollups = Atomic<Int>(0)
            let halves = Atomic<Int>(0)
            let group = DispatchGroup()
            let elementList = elementTypes
            let commandList = commands

            let writer = Thread {
                defer {
                    ingesting.store(false, ordering: .sequentiallyConsistent)
                    group.leave()
                }
                do {
                    let conn = try schema.connect()
                    var seed: UInt64 = 42
                    func next(_ bound: Int) -> Int {
                        seed = seed &* 6364136223846793005 &+ 1442695040888963407
                        return Int((seed >> 33) % UInt64(bound))
                    }
                    var contexts = contextList
                    for transaction in 0..<120 {
                        // A new app version now and then, its context made on its own (as ingestion's
                        // dictionaries make it) right before its first events.
                        if transaction % 30 == 29 {
                            contexts.append(try LayoutFixtures.context(
                                app: app, isTest: next(3) == 0, platform: next(2) == 0 ? "iOS 18.1" : "Android 14",
                                appVersion: "4.\(10 + transaction)", on: conn))
                        }
                        // Every 20 transactions, let a rollup run in between (a wait of up to 60 s: a rollup takes seconds on a loaded machine, and the test needs several to interleave), so the
                        // rollups interleave with ingestion however loaded the machine is.
                        if transaction % 20 == 19 {
                            let seen = rollups.load(ordering: .relaxed)
                            for _ in 0..<60_000 where rollups.load(ordering: .relaxed) == seen { usleep(1_000) }
                        }
                        let day = days[next(days.count)]
                        let element = elementList[next(elementList.count)]
                        let command: Int32? = next(5) == 0 ? nil : commandList[next(commandList.count)]
                        let low = 1 + next(40)
                        try LayoutFixtures.insertEvents(app: app, day: day, elementType: element, command: command,
                                                        count: 1 + next(25), users: low...(low + next(30)),
                                                        withoutUser: next(4), context: contexts[next(contexts.count)],
                                                        on: conn)
                    }
                } catch {
                    failures.withLock { $0.append("writer: \(error)") }
                }
            }
            func rollupThread(_ name: String) -> Thread {
                Thread {
                    defer { group.leave() }
                    do {
                        let conn = try schema.connect()
                        let helper = try schema.connect()
                        let store = RollupStore(splitFromPages: 1)
                        while ingesting.load(ordering: .sequentiallyConsistent) {
                            let outcome = try store.rollUp(appID: app, on: conn, alongside: helper)
                            halves.add(outcome.daysReadInHalves, ordering: .relaxed)
                            rollups.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.withLock { $0.append("\(name): \(error)") }
                    }
                }
            }
            let threads = [writer, rollupThread("rollup-1"), rollupThread("rollup-2")]
            for thread in threads {
                group.enter()
                thread.start()
            }
            group.wait()
            #expect(failures.withLock { $0 } == [])
            #expect(rollups.load(ordering: .relaxed) > 2)
            let last = try RollupStore(splitFromPages: 1).rollUp(appID: app, on: setup, alongside: try schema.connect())
            let readInHalves = halves.load(ordering: .relaxed) + last.daysReadInHalves
            #expect(TestDatabase.distributed ? readInHalves == 0 : readInHalves > 0)
            #expect(try setup.query("SELECT count(*) FROM rollup_queue")[0].decode(Int.self, at: 0) == 0)
            try Self.compareWithEvents(app: app, on: setup)
            // The block rollups too equal their days (2026-11-25 ... 2026-11-28 lie in ended blocks).
            #expect(try setup.query("SELECT count(*) FROM rollup_blocks")[0].decode(Int.self, at: 0) > 0)
            try RollupBlockTests.compareBlocksWithDays(app: app, on: setup)
        }
    }
}
