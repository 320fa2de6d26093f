import Foundation
import Postgres
import Storage
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct EventWriterTests {
    @Test func storesEveryFieldAndQueuesTheRollup() throws {
        try StorageFixture.with(prefix: "writer") { fixture in
            let writer = fixture.makeWriter()
            defer { writer.shutdown() }
            let day = Rows.today - 1
            let full = EventRow(appID: 7, day: day, time: Int64(day) * 86_400_000_000 + 45_296_789_012,
                                userHash: -1234567890123, eventIDHigh: 0x0193_A4C2_6F1E_7C3A,
                                eventIDLow: 0x9D2B_4E5F_6071_8293, elementTypeID: 3, commandID: 9, contextID: 2,
                                latencyMs: 840, sessionHash: -77, position: 4, personBucket: 63)
            let sparse = EventRow(appID: 7, day: day, time: Int64(day) * 86_400_000_000, userHash: nil,
                                  eventIDHigh: 1, eventIDLow: 2, elementTypeID: 3, commandID: nil, contextID: nil,
                                  latencyMs: nil, sessionHash: nil, position: nil)
            #expect(try writer.write([full, sparse]) == WriteCounts(accepted: 2, duplicates: 0))

            let rows = try fixture.connect().query("""
                SELECT app_id, day - DATE '1970-01-01', (extract(epoch FROM time) * 1000000)::int8, user_hash,
                       event_id::text, element_type_id, command_id, context_id, latency_ms, session_hash, position,
                       person_bucket
                FROM events ORDER BY event_id
                """)
            #expect(rows.count == 2)
            let a = rows[1]
            #expect(try a.decode(Int32.self, at: 0) == 7)
            #expect(try a.decode(Int32.self, at: 1) == day)
            #expect(try a.decode(Int64.self, at: 2) == full.time)
            #expect(try a.decode(Int64?.self, at: 3) == -1234567890123)
            #expect(try a.decode(String.self, at: 4) == "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293")
            #expect(try a.decode(Int32.self, at: 5) == 3)
            #expect(try a.decode(Int32?.self, at: 6) == 9)
            #expect(try a.decode(Int32?.self, at: 7) == 2)
            #expect(try a.decode(Int32?.self, at: 8) == 840)
            #expect(try a.decode(Int32?.self, at: 9) == -77)
            #expect(try a.decode(Int16?.self, at: 10) == 4)
            #expect(try a.decode(Int16?.self, at: 11) == 63)
            let b = rows[0]
            #expect(try b.decode(String.self, at: 4) == "00000000-0000-0001-0000-000000000002")
            for column in [3, 6, 7, 8, 9, 10, 11] { #expect(b.isNull(at: column)) }

            let queued = try fixture.connect().query("SELECT app_id, day - DATE '1970-01-01' FROM rollup_queue")
            #expect(queued.count == 1)
            #expect(try queued[0].decode(Int32.self, at: 0) == 7)
            #expect(try queued[0].decode(Int32.self, at: 1) == day)
        }
    }

    @Test func duplicatesAreReportedAndNeverStoredTwice() throws {
        try StorageFixture.with(prefix: "writer") { fixture in
            let writer = fixture.makeWriter()
            defer { writer.shutdown() }
            let first = Rows.make(appID: 1, count: 100, seed: 1)
            let more = Rows.make(appID: 1, count: 50, seed: 2)
            let got57 = try writer.write(first)
            #expect(got57 == WriteCounts(accepted: 100, duplicates: 0))
            // A retried batch with new events mixed in: the stored ones are duplicates.
            let got59 = try writer.write(first + more)
            #expect(got59 == WriteCounts(accepted: 50, duplicates: 100))
            // The same event twice in one write.
            let twice = Rows.make(appID: 1, count: 3, seed: 3)
            let got62 = try writer.write(twice + [twice[0]])
            #expect(got62 == WriteCounts(accepted: 3, duplicates: 1))
            // The same id in another app is another event.
            let otherApp = first.prefix(10).map { row -> EventRow in
                var copy = row
                copy.appID = 2
                return copy
            }
            let got69 = try writer.write(otherApp)
            #expect(got69 == WriteCounts(accepted: 10, duplicates: 0))
            let got70 = try fixture.count("SELECT count(*) FROM events")
            #expect(got70 == 163)
            // The staged path (a retried batch) stores the bucket as the direct one does.
            let withBucket = try fixture.count("SELECT count(*) FROM events WHERE person_bucket BETWEEN 0 AND 63")
            #expect(withBucket == 163)
        }
    }

    @Test func concurrentWritesAllCommitWithExactCounts() throws {
        try StorageFixture.with(prefix: "writer") { fixture in
            let writer = fixture.makeWriter(writers: 2, maxRows: 2_000)
            defer { writer.shutdown() }
            let threads = 12
            let results = ResultBox()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for round in 0..<10 {
                    // Threads 0-5 and 6-11 send the same events, so groups contain duplicates.
                    let rows = Rows.make(appID: 1, count: 40, seed: UInt64((thread % 6) * 100 + round))
                    do {
                        results.add(try writer.write(rows))
                    } catch {
                        results.fail()
                    }
                }
            }
            let totals = results.totals
            #expect(totals.failures == 0)
            #expect(totals.counts.accepted + totals.counts.duplicates == threads * 10 * 40)
            #expect(totals.counts.accepted == 6 * 10 * 40)
            let got95 = try fixture.count("SELECT count(*) FROM events")
            #expect(got95 == totals.counts.accepted)
        }
    }

    /// `maintain` as the daemon's maintainer runs it: dropping an expired day gives up after 200 ms
    /// behind other DDL (on Citus, that of the suites running at the same time) and is retried.
    static func maintain(_ partitions: PartitionManager, on connection: PostgresConnection, today: Int32) throws
        -> (created: Int, dropped: Int)
    {
        var attempt = 1
        while true {
            do {
                return try partitions.maintain(on: connection, today: Rows.date(today))
            } catch {
                let timedOut = (error.underlying as? PostgresError)?.sqlState == .lockNotAvailable
                guard timedOut, attempt < TestDatabase.ddlAttempts else { throw error }
                Thread.sleep(forTimeInterval: 0.5)
                attempt += 1
            }
        }
    }

    /// Tombstones of `users forget` (sql/0017) live as long as their day's events would: the
    /// maintenance that drops a day's partition deletes them too, and keeps the others.
    @Test func maintenanceDropsTombstonesPastTheRetention() throws {
        try StorageFixture.with(prefix: "tombstones") { fixture in
            let partitions = PartitionManager(retentionDays: 3, attempts: TestDatabase.ddlAttempts)
            let connection = try fixture.connect()
            let today = Rows.today
            try connection.execute("""
                INSERT INTO forgotten_events (app_id, day, event_id)
                SELECT 1, DATE '1970-01-01' + \(today) - d, gen_random_uuid() FROM generate_series(0, 9) d
                """)
            _ = try Self.maintain(partitions, on: connection, today: today)
            let kept = try connection.query("""
                SELECT (day - DATE '1970-01-01')::int4 FROM forgotten_events ORDER BY day
                """).map { try $0.decode(Int32.self, at: 0) }
            #expect(kept == [today - 3, today - 2, today - 1, today])
        }
    }

    @Test func createsMissingPartitionsAndAppliesRetention() throws {
        try StorageFixture.with(prefix: "writer") { fixture in
            let partitions = PartitionManager(retentionDays: 3, attempts: TestDatabase.ddlAttempts)
            let connection = try fixture.connect()
            let today = Rows.today
            let (created, _) = try partitions.maintain(on: connection, today: Rows.date(today))
            #expect(created == 3 + 1 + 3)
            // A day outside the maintained range is created when rows go into it.
            try partitions.ensure(days: [today - 10], on: connection)
            #expect(try fixture.count("SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass") == 8)
            // A late event's queue row for that old day goes with its partition (a rollup of it would
            // find no events and wipe the day's rollups), and the day's rollups stay.
            try connection.execute(unsafeSQL: """
                INSERT INTO apps (app_id, name, hash_secret) VALUES (1, 'retention', decode(repeat('00', 16), 'hex'));
                INSERT INTO rollup_queue (app_id, day) VALUES (1, DATE '1970-01-01' + \(today - 10)), (1, DATE '1970-01-01' + \(today));
                INSERT INTO daily_element_usage (app_id, day, element_type_id, selections, dismissals, users)
                VALUES (1, DATE '1970-01-01' + \(today - 10), 1, 7, 0, hll_empty());
                """)
            let (again, dropped) = try Self.maintain(partitions, on: connection, today: today)
            #expect(again == 0 && dropped == 1)
            #expect(try fixture.count("SELECT count(*) FROM rollup_queue") == 1)
            #expect(try fixture.count("SELECT count(*) FROM daily_element_usage") == 1)
            // One transaction each: on Citus a table referenced by distributed tables (apps) may not
            // change after a parallel multi-shard statement of the same transaction.
            for table in ["rollup_queue", "daily_element_usage", "apps"] {
                try connection.execute("DELETE FROM \(identifier: table)")
            }

            try StorageFixture.ensureApps(on: connection)
            let schema = fixture.schema
            let writer = EventWriter(configuration: .init(connect: { try schema.connect() }), partitions: partitions)
            writer.start()
            defer { writer.shutdown() }
            // The partition was dropped behind the cache's back: the writer notices and recreates it.
            try connection.execute(unsafeSQL: "DROP TABLE events_\(Self.compact(today))")
            #expect(try writer.write(Rows.make(appID: 1, count: 5, day: today)).accepted == 5)
        }
    }

    @Test func unreachableDatabaseFailsWritesAsUnavailable() throws {
        let writer = EventWriter(
            configuration: .init(connect: { try PostgresConnection("postgresql://127.0.0.1:1/none",
                                                                   parameters: ["connect_timeout": "2"]) }),
            partitions: PartitionManager(retentionDays: 90, attempts: TestDatabase.ddlAttempts))
        writer.start()
        defer { writer.shutdown() }
        let error = try #require(throws: StorageError.self) { try writer.write(Rows.make(appID: 1, count: 2)) }
        #expect(error.kind == .unavailable)
        #expect(!writer.isDatabaseAvailable)
    }

    @Test func shutdownCommitsWhatWasQueuedAndRefusesMore() throws {
        try StorageFixture.with(prefix: "writer") { fixture in
            let writer = fixture.makeWriter()
            let results = ResultBox()
            let group = DispatchGroup()
            for seed in 0..<8 {
                DispatchQueue.global().async(group: group) {
                    do { results.add(try writer.write(Rows.make(appID: 1, count: 100, seed: UInt64(seed) + 50))) }
                    catch { results.fail() }
                }
            }
            group.wait()
            writer.shutdown()
            #expect(try fixture.count("SELECT count(*) FROM events") == results.totals.counts.accepted)
            let error = try #require(throws: StorageError.self) { try writer.write(Rows.make(appID: 1, count: 1)) }
            #expect(error.kind == .shuttingDown)
        }
    }

    static func compact(_ day: Int32) -> String {
        let date = Date(timeIntervalSince1970: Double(day) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
    }
}

/// Sums results from many threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = WriteCounts()
    private var failures = 0

    func add(_ value: WriteCounts) {
        lock.lock()
        counts.accepted += value.accepted
        counts.duplicates += value.duplicates
        lock.unlock()
    }

    func fail() {
        lock.lock()
        failures += 1
        lock.unlock()
    }

    var totals: (counts: WriteCounts, failures: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (counts, failures)
    }
}

@Suite("EventWriter lost COMMIT reply", TestDatabase.enabled)
struct LostCommitReplyTests {
    /// The server commits, but the reply to COMMIT never arrives (the connection is cut right
    /// after). The writer must report the group's events as accepted, not as duplicates of
    /// themselves, and store them once.
    @Test func aCommitWhoseReplyWasLostCountsItsEventsAsAccepted() throws {
        try StorageFixture.with(prefix: "lostcommit") { fixture in
            let serverPort: Int = try Int(fixture.connect().query("SHOW port")[0].decode(String.self, at: 0))!
            let proxy = try CommitReplyDroppingProxy(targetPort: UInt16(serverPort))
            defer { proxy.close() }
            var parameters = fixture.schema.parameters
            parameters["host"] = "127.0.0.1"
            parameters["hostaddr"] = "127.0.0.1"
            parameters["port"] = String(proxy.port)
            parameters["sslmode"] = "disable"
            parameters["gssencmode"] = "disable"
            let through = parameters
            try StorageFixture.ensureApps(on: fixture.connect())
            let writer = EventWriter(
                configuration: .init(connect: { try PostgresConnection(TestDatabase.conninfo, parameters: through) }),
                partitions: PartitionManager(retentionDays: 90, attempts: TestDatabase.ddlAttempts))
            writer.start()
            defer { writer.shutdown() }
            // A first write sets up the partitions and the connection.
            #expect(try writer.write(Rows.make(appID: 1, count: 3, seed: 1)).accepted == 3)

            proxy.dropCommitReplies(1)
            let counts = try writer.write(Rows.make(appID: 1, count: 50, seed: 2))
            #expect(proxy.droppedReplies == 1)
            #expect(counts.accepted == 50 && counts.duplicates == 0, "\(counts)")
            #expect(try fixture.count("SELECT count(*) FROM events") == 53)

            // A real duplicate is still one, on a retry whose COMMIT reply is lost too.
            proxy.dropCommitReplies(1)
            let again = try writer.write(Rows.make(appID: 1, count: 50, seed: 2) + Rows.make(appID: 1, count: 5, seed: 3))
            #expect(proxy.droppedReplies == 2)
            #expect(again.accepted == 5 && again.duplicates == 50, "\(again)")
            #expect(try fixture.count("SELECT count(*) FROM events") == 58)
        }
    }

    /// A group of two apps whose COMMIT reply is lost: its token is filed under its first app
    /// (sql/0013), and that one token answers for the whole group. On Citus the two apps are picked
    /// on different workers, so the group is a two-phase commit and the token sits on one of them.
    @Test func aLostCommitOfSeveralAppsIsAnsweredByTheFirstAppsToken() throws {
        try StorageFixture.with(prefix: "lostcommit_apps") { fixture in
            let setup = try fixture.connect()
            let serverPort: Int = try Int(setup.query("SHOW port")[0].decode(String.self, at: 0))!
            let first: Int32 = 3
            let second = try Self.appOnAnotherWorker(than: first, on: setup)
            let proxy = try CommitReplyDroppingProxy(targetPort: UInt16(serverPort))
            defer { proxy.close() }
            var parameters = fixture.schema.parameters
            parameters["host"] = "127.0.0.1"
            parameters["hostaddr"] = "127.0.0.1"
            parameters["port"] = String(proxy.port)
            parameters["sslmode"] = "disable"
            parameters["gssencmode"] = "disable"
            let through = parameters
            try StorageFixture.ensureApps(on: setup)
            let writer = EventWriter(
                configuration: .init(connect: { try PostgresConnection(TestDatabase.conninfo, parameters: through) }),
                partitions: PartitionManager(retentionDays: 90, attempts: TestDatabase.ddlAttempts))
            writer.start()
            defer { writer.shutdown() }
            #expect(try writer.write(Rows.make(appID: first, count: 2, seed: 20)).accepted == 2)
            let tokensBefore = try fixture.count("SELECT count(*) FROM ingest_commits WHERE app_id = \(first)")

            proxy.dropCommitReplies(1)
            let counts = try writer.write(Rows.make(appID: second, count: 40, seed: 21) + Rows.make(appID: first, count: 30, seed: 22))
            #expect(proxy.droppedReplies == 1)
            #expect(counts.accepted == 70 && counts.duplicates == 0, "\(counts)")
            #expect(try fixture.count("SELECT count(*) FROM events WHERE app_id = \(second)") == 40)
            #expect(try fixture.count("SELECT count(*) FROM events WHERE app_id = \(first)") == 32)
            #expect(try fixture.count("SELECT count(*) FROM ingest_commits WHERE app_id = \(first)") == tokensBefore + 1)
            #expect(try fixture.count("SELECT count(*) FROM ingest_commits WHERE app_id = \(second)") == 0)
        }
    }

    /// An app id whose events live on another worker than `app`'s on a Citus run; any other app
    /// id on a single node.
    static func appOnAnotherWorker(than app: Int32, on connection: PostgresConnection) throws -> Int32 {
        guard TestDatabase.distributed else { return app + 4 }
        func port(_ id: Int32) throws -> Int32 {
            try connection.query("""
                SELECT p.nodeport FROM pg_dist_placement pl JOIN pg_dist_node p ON p.groupid = pl.groupid
                WHERE pl.shardid = get_shard_id_for_distribution_column('events', \(id))
                """)[0].decode(at: 0)
        }
        let home = try port(app)
        for candidate in (app + 1)...(app + 64) where try port(candidate) != home { return candidate }
        throw PostgresError(kind: .query, message: "every app id near \(app) is on one worker")
    }
}
