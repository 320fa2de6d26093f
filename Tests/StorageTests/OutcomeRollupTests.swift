import CivilTime
import Foundation
import Outcomes
import Postgres
import Storage
import Synchronization
import Testing
import TestSupport
import Locking

@Suite(TestDatabase.enabled) struct OutcomeRollupTests {
    /// Inserts `count` events of one element type under one context (menu version), with positions
    /// and latencies spread by the row number, together with their queue row, as ingestion does.
    static func insertEvents(app: Int32, day: String, elementType: Int32, command: Int32?, context: Int32?,
                             count: Int, latencyBase: Int, on connection: PostgresConnection) throws
    {
        try TestDatabase.ensureEventPartitions(through: day, on: connection)
        try connection.withTransaction { connection in
            try connection.execute("""
                INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id,
                                    position, latency_ms)
                SELECT \(app), \(day)::date, \(day)::date + interval '12 hours', g % 7, gen_random_uuid(),
                       \(elementType), NULLIF(\(command ?? 0), 0), NULLIF(\(context ?? 0), 0),
                       CASE WHEN g % 9 = 0 THEN NULL ELSE (g % 6)::int2 END,
                       CASE WHEN g % 11 = 0 THEN NULL ELSE \(Int32(latencyBase)) + (g * 37) % 2500 END
                FROM generate_series(1, \(count)) g
                """)
            try connection.execute("INSERT INTO rollup_queue (app_id, day) VALUES (\(app), \(day)::date)")
        }
    }

    static func context(_ menuVersion: String, app: Int32, on connection: PostgresConnection) throws -> Int32 {
        try connection.query("""
            INSERT INTO contexts (app_id, menu_version) VALUES (\(app), \(menuVersion)) RETURNING context_id
            """)[0].decode(at: 0)
    }

    /// The outcome rollups against the events counted here in Swift: opens, dismissals, positions
    /// and latency buckets must be equal exactly.
    static func compareWithEvents(app: Int32, on connection: PostgresConnection) throws {
        var expected: [String: OutcomeTally] = [:]
        for row in try connection.query("""
            SELECT e.day::text, t.name, COALESCE(c.menu_version, ''), e.command_id IS NULL, e.position::int4, e.latency_ms
            FROM events e
            JOIN element_types t ON t.app_id = e.app_id AND t.element_type_id = e.element_type_id
            LEFT JOIN contexts c ON c.app_id = e.app_id AND c.context_id = e.context_id
            WHERE e.app_id = \(app)
            """)
        {
            let key = "\(try row.decode(String.self, at: 0)) \(try row.decode(String.self, at: 1)) [\(try row.decode(String.self, at: 2))]"
            var tally = expected[key] ?? OutcomeTally()
            tally.opens += 1
            if try row.decode(Bool.self, at: 3) {
                tally.dismissals += 1
            } else {
                if let position = try row.decode(Int32?.self, at: 4) { tally.positions[Int(position), default: 0] += 1 }
                if let latency = try row.decode(Int32?.self, at: 5) { tally.latency.add(latency: Int(latency)) }
            }
            expected[key] = tally
        }
        var actual: [String: OutcomeTally] = [:]
        for row in try OutcomeQuery().rows(appID: app, from: CivilDate(dayNumber: 0), to: CivilDate(dayNumber: 40_000), on: connection) {
            actual["\(row.day.description) \(row.elementType) [\(row.menuVersion)]"] = row.tally
        }
        #expect(!expected.isEmpty)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (key, tally) in expected { #expect(actual[key] == tally, "\(key)") }
    }

    @Test func rollsUpPerMenuVersionAndALateEventUpdatesItsOwnDay() throws {
        try TestDatabase.withSchema(prefix: "outcomes") { schema in
            let conn = try schema.connect()
            try LayoutFixtures.migrate(conn)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: conn)
            let v1 = try Self.context("2026.11.1", app: app, on: conn)
            let v2 = try Self.context("2026.11.1+2", app: app, on: conn)
            try Self.insertEvents(app: app, day: "2026-11-28", elementType: message, command: reply, context: v1,
                                  count: 300, latencyBase: 900, on: conn)
            try Self.insertEvents(app: app, day: "2026-11-28", elementType: message, command: nil, context: v1,
                                  count: 20, latencyBase: 2000, on: conn)
            try Self.insertEvents(app: app, day: "2026-11-29", elementType: message, command: reply, context: v2,
                                  count: 200, latencyBase: 600, on: conn)
            try Self.insertEvents(app: app, day: "2026-11-29", elementType: message, command: reply, context: nil,
                                  count: 15, latencyBase: 600, on: conn)
            let first = try RollupStore().rollUp(appID: app, on: conn)
            #expect(first.outcomeRows == 3)
            try Self.compareWithEvents(app: app, on: conn)
            let before = try OutcomeQuery().rows(appID: app, from: CivilDate(dayNumber: 0), to: CivilDate(dayNumber: 40_000), on: conn)
            let day28 = try #require(before.first { $0.day.description == "2026-11-28" })
            #expect(day28.tally.opens == 320 && day28.tally.dismissals == 20)

            // A late event for the 28th: only that day is recomputed, and the 29th stays as it was.
            try Self.insertEvents(app: app, day: "2026-11-28", elementType: message, command: reply, context: v1,
                                  count: 5, latencyBase: 100, on: conn)
            let late = try RollupStore().rollUp(appID: app, on: conn)
            #expect(late.days.map(\.description) == ["2026-11-28"])
            #expect(late.outcomeRows == 1)
            try Self.compareWithEvents(app: app, on: conn)
            let after = try OutcomeQuery().rows(appID: app, from: CivilDate(dayNumber: 0), to: CivilDate(dayNumber: 40_000), on: conn)
            #expect(after.first { $0.day.description == "2026-11-28" }?.tally.opens == 325)
            #expect(after.filter { $0.day.description == "2026-11-29" }
                == before.filter { $0.day.description == "2026-11-29" })
        }
    }

    /// Ingestion and repeated rollups from two threads at the same time; afterwards the outcome
    /// rollups equal the events exactly.
    @Test func exactUnderConcurrentIngestion() throws {
        try TestDatabase.withSchema(prefix: "outcomesconc") { schema in
            let setup = try schema.connect()
            try LayoutFixtures.migrate(setup)
            let app = try LayoutFixtures.createApp("mail", on: setup)
            var elementTypes: [Int32] = []
            for name in ["mail.message", "mail.mailbox"] {
                elementTypes.append(try LayoutFixtures.id(name, in: "element_types", app: app, on: setup))
            }
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: setup)
            let contexts = [try Self.context("1", app: app, on: setup), try Self.context("2", app: app, on: setup),
                            try Self.context("unknown-9", app: app, on: setup)]
            let days = ["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]
            try TestDatabase.ensureEventPartitions(through: "2026-11-29", days: 4, on: setup)

            let failures = Locked<[String]>([])
            let ingesting = Atomic<Bool>(true)
            let rollups = Atomic<Int>(0)
            let group = DispatchGroup()
            let elementList = elementTypes
            let writer = Thread {
                defer {
                    ingesting.store(false, ordering: .sequentiallyConsistent)
                    group.leave()
                }
                do {
                    let conn = try schema.connect()
                    var seed: UInt64 = 7
                    func next(_ bound: Int) -> Int {
                        seed = seed &* 6364136223846793005 &+ 1442695040888963407
                        return Int((seed >> 33) % UInt64(bound))
                    }
                    for transaction in 0..<100 {
                        // Let a rollup run in between now and then (a wait of up to 60 s: a rollup takes seconds on a loaded machine, and the test needs several to interleave), so rollups
                        // interleave with ingestion however loaded the machine is.
                        if transaction % 20 == 19 {
                            let seen = rollups.load(ordering: .relaxed)
                            for _ in 0..<60_000 where rollups.load(ordering: .relaxed) == seen { usleep(1_000) }
                        }
                        try Self.insertEvents(
                            app: app, day: days[next(days.count)], elementType: elementList[next(elementList.count)],
                            command: next(6) == 0 ? nil : reply, context: next(5) == 0 ? nil : contexts[next(3)],
                            count: 1 + next(30), latencyBase: 50 + next(3000), on: conn)
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
                        while ingesting.load(ordering: .sequentiallyConsistent) {
                            _ = try RollupStore().rollUp(appID: app, on: conn)
                            rollups.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.withLock { $0.append("\(name): \(error)") }
                    }
                }
            }
            for thread in [writer, rollupThread("rollup-1"), rollupThread("rollup-2")] {
                group.enter()
                thread.start()
            }
            group.wait()
            #expect(failures.withLock { $0 } == [])
            #expect(rollups.load(ordering: .relaxed) > 2)
            _ = try RollupStore().rollUp(appID: app, on: setup)
            try Self.compareWithEvents(app: app, on: setup)
        }
    }
}
