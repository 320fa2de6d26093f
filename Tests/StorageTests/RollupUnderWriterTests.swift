import Dispatch
import Foundation
import Postgres
import Ranking
import Storage
import Synchronization
import Testing
import TestSupport
import Locking

/// The daemon's real write path (the group-commit `EventWriter`, two writer connections, retried
/// batches among the writes) and repeated rollups from two threads, all at once: afterwards the
/// daily rollups equal a direct count of the stored events, and every accepted event is stored once.
@Suite(TestDatabase.enabled) struct RollupUnderWriterTests {
    @Test func rollupsStayExactWhileTheEventWriterCommits() throws {
        try StorageFixture.with(prefix: "rollupwriter") { fixture in
            let writer = fixture.makeWriter(writers: 2, maxRows: 1_500)
            let app: Int32 = 1
            let days = (0..<4).map { Rows.today - Int32($0) }
            let accepted = Atomic<Int>(0)
            let failures = Locked<[String]>([])
            let writing = Atomic<Bool>(true)
            let rollups = Atomic<Int>(0)

            let rollers = (0..<2).map { index in
                Thread {
                    do {
                        let connection = try fixture.connect()
                        while writing.load(ordering: .sequentiallyConsistent) {
                            _ = try RollupStore().rollUp(appID: app, on: connection)
                            rollups.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.withLock { $0.append("rollup \(index): \(error)") }
                    }
                }
            }
            rollers.forEach { $0.start() }

            // Eight request threads, 12 writes each, spread over four days, several element types
            // and commands; threads 4-7 resend what threads 0-3 sent (retried batches).
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for round in 0..<12 {
                    let seed = UInt64((thread % 4) * 1_000 + round)
                    var rows = Rows.make(appID: app, count: 60, seed: seed, day: days[round % days.count])
                    for index in rows.indices {
                        rows[index].elementTypeID = Int32(1 + (index + round) % 3)
                        if rows[index].commandID != nil { rows[index].commandID = Int32(1 + (index * 7 + thread % 4) % 5) }
                    }
                    do {
                        accepted.add(try writer.write(rows).accepted, ordering: .relaxed)
                    } catch {
                        failures.withLock { $0.append("writer \(thread): \(error)") }
                    }
                    // Every few writes, let a rollup run in between (a wait of up to 60 s: a rollup takes seconds on a loaded machine, and the test needs several to interleave), so the rollups
                    // interleave with the commits however loaded the machine is.
                    if round % 4 == 3 {
                        let seen = rollups.load(ordering: .relaxed)
                        for _ in 0..<60_000 where rollups.load(ordering: .relaxed) == seen { usleep(1_000) }
                    }
                }
            }
            writer.shutdown()
            writing.store(false, ordering: .sequentiallyConsistent)
            // Let the rollup threads finish their last round.
            while rollers.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.01) }

            #expect(failures.withLock { $0 } == [])
            #expect(rollups.load(ordering: .relaxed) > 2)
            let connection = try fixture.connect()
            #expect(try fixture.count("SELECT count(*) FROM events") == accepted.load(ordering: .relaxed))
            #expect(accepted.load(ordering: .relaxed) == 4 * 12 * 60)
            _ = try RollupStore().rollUp(appID: app, on: connection)
            #expect(try fixture.count("SELECT count(*) FROM rollup_queue") == 0)
            try RollupStoreTests.compareWithEvents(app: app, on: connection)
            try Self.compareSplitsWithSQL(app: app, on: connection)
        }
    }

    /// Every event stored by the writer has its bucket: the stored split of each day and command
    /// equals a `GROUP BY` of the events by `person_bucket` (selections, and distinct people as
    /// user-days; `Rows.make` gives every event a user).
    static func compareSplitsWithSQL(app: Int32, on connection: PostgresConnection) throws {
        #expect(try connection.query("SELECT count(*) FROM events WHERE app_id = \(app) AND person_bucket IS NULL")
            .first?.decode(Int.self, at: 0) == 0)
        var expected: [String: ([Int64], [Int64])] = [:]
        for row in try connection.query("""
            SELECT day || ' ' || element_type_id || ' ' || command_id, person_bucket, count(*), count(DISTINCT user_hash)
            FROM events WHERE app_id = \(app) AND command_id IS NOT NULL GROUP BY 1, 2
            """)
        {
            let key: String = try row.decode(at: 0)
            let bucket = Int(try row.decode(Int16.self, at: 1))
            var counts = expected[key] ?? ([Int64](repeating: 0, count: 64), [Int64](repeating: 0, count: 64))
            counts.0[bucket] = try row.decode(at: 2)
            counts.1[bucket] = try row.decode(at: 3)
            expected[key] = counts
        }
        var actual: [String: [UInt8]] = [:]
        for row in try connection.query("""
            SELECT day || ' ' || element_type_id || ' ' || command_id, encode(people, 'hex') FROM daily_command_usage
            WHERE app_id = \(app)
            """)
        {
            actual[try row.decode(String.self, at: 0)] = PeopleSplitTests.hexBytes(try row.decode(String.self, at: 1))
        }
        #expect(Set(actual.keys) == Set(expected.keys))
        for (key, counts) in expected {
            #expect(actual[key] == PeopleCounts.encode(selections: counts.0, userDays: counts.1), "\(key)")
        }
    }
}
