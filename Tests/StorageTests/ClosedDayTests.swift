import CivilTime
import Foundation
import Postgres
import Storage
import TestSupport
import Testing

/// Closed days (sql/0015): a day before yesterday is rewritten in (app_id, event_id) order with a
/// BRIN index instead of its unique btree, and every event is still stored once: a late retry,
/// concurrent retries from several connections, and writes racing the closing itself.
@Suite(TestDatabase.enabled) struct ClosedDayTests {
    /// The partition of `day`, `events_YYYYMMDD`.
    static func partition(_ day: Int32) -> String {
        "events_" + CivilDateText.compact(day)
    }

    /// The day's indexes, as `name kind unique`.
    static func indexes(of day: Int32, on connection: PostgresConnection) throws -> [String] {
        try connection.query("""
            SELECT c.relname || ' ' || a.amname || ' ' || i.indisunique
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
            WHERE i.indrelid = to_regclass(\(partition(day)))
            ORDER BY 1
            """).map { try $0.decode(at: 0) }
    }

    /// Rows stored and distinct (app, event id) keys among them, for one day.
    static func stored(_ day: Int32, _ fixture: StorageFixture) throws -> (rows: Int, distinct: Int) {
        let connection = try fixture.connect()
        let row = try connection.query("""
            SELECT count(*)::int8, count(DISTINCT (app_id, event_id))::int8 FROM events
            WHERE day = DATE '1970-01-01' + \(day)
            """)[0]
        return (try row.decode(at: 0), try row.decode(at: 1))
    }

    /// The upgrade to sql/0015 on a schema with days and events: the key moves from `events` to each
    /// day, the events stay, and a stored key is still refused; the days then close as new ones do.
    @Test func upgradeFrom0014MovesTheKeyToEachDay() throws {
        let sql = try RepositoryPaths.root().appendingPathComponent("sql")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-0014-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try FileManager.default.contentsOfDirectory(atPath: sql.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files.contains("0015_closed_days.sql"))
        for file in files where file < "0015" {
            try FileManager.default.copyItem(at: sql.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        try TestDatabase.withSchema(prefix: "upgrade15") { schema in
            let connection = try schema.connect()
            _ = try Migrator(directory: folder).migrate(on: connection, distribute: TestDatabase.distributed)
            let day = Rows.today - 3
            try TestDatabase.ensureEventPartitions(through: CivilDateText.iso(day), days: 2, on: connection)
            try connection.execute("""
                INSERT INTO events (app_id, day, time, event_id, element_type_id)
                SELECT 1 + g % 2, DATE '1970-01-01' + \(day) - g % 2, now(), gen_random_uuid(), 1
                FROM generate_series(1, 400) AS g
                """)
            try FileManager.default.copyItem(at: sql.appendingPathComponent("0015_closed_days.sql"),
                                             to: folder.appendingPathComponent("0015_closed_days.sql"))
            let applied = try Migrator(directory: folder).migrate(on: connection, distribute: TestDatabase.distributed)
            #expect(applied.applied.map(\.version) == [15])
            #expect(try connection.query("SELECT count(*)::int8 FROM pg_constraint WHERE conrelid = 'events'::regclass AND contype = 'p'")[0]
                .decode(Int.self, at: 0) == 0)
            for kept in [day - 1, day] {
                #expect(try Self.indexes(of: kept, on: connection) == ["\(Self.partition(kept))_key btree true"])
            }
            #expect(try connection.query("SELECT count(DISTINCT (app_id, event_id))::int8 FROM events")[0].decode(Int.self, at: 0) == 400)
            #expect(throws: PostgresError.self) {
                try connection.execute("""
                    INSERT INTO events (app_id, day, time, event_id, element_type_id)
                    SELECT app_id, day, time, event_id, element_type_id FROM events LIMIT 1
                    """)
            }
            let partitions = PartitionManager(retentionDays: 90, attempts: TestDatabase.ddlAttempts)
            #expect(try partitions.close(on: connection) == [day - 1, day].map(Rows.date))
            #expect(try connection.query("SELECT count(*)::int8 FROM events")[0].decode(Int.self, at: 0) == 400)
        }
    }

    @Test func aLateRetryIntoAClosedDayIsStoredOnce() throws {
        try StorageFixture.with(prefix: "closed") { fixture in
            let writer = fixture.makeWriter()
            defer { writer.shutdown() }
            let day = Rows.today - 3
            let first = Rows.make(appID: 1, count: 2_000, seed: 11, day: day)
            let other = Rows.make(appID: 2, count: 500, seed: 12, day: day)
            #expect(try writer.write(first).accepted == 2_000)
            #expect(try writer.write(other).accepted == 500)
            #expect(try writer.write(Rows.make(appID: 1, count: 10, seed: 16, day: Rows.today - 1)).accepted == 10)
            let connection = try fixture.connect()
            #expect(try Self.indexes(of: day, on: connection) == ["\(Self.partition(day))_key btree true"])

            // Maintenance closes the days before yesterday that hold events, once.
            #expect(try writer.partitions.close(on: connection) == [Rows.date(day)])
            #expect(try writer.partitions.close(on: connection) == [])
            #expect(try Self.indexes(of: day, on: connection) == ["\(Self.partition(day))_brin brin false"])
            #expect(try fixture.count("SELECT count(*) FROM closed_event_days") == 1)
            // Yesterday and today stay open.
            #expect(try Self.indexes(of: Rows.today - 1, on: connection) == ["\(Self.partition(Rows.today - 1))_key btree true"])

            // The whole batch again, days late: all duplicates.
            let retry = try writer.write(first)
            #expect(retry.accepted == 0 && retry.duplicates == 2_000)
            // Half old, half new, with the new half repeated inside the batch, plus events of an
            // open day (new and stored) in the same write.
            let fresh = Rows.make(appID: 1, count: 300, seed: 13, day: day)
            let today = Rows.make(appID: 1, count: 50, seed: 14, day: Rows.today)
            #expect(try writer.write(today).accepted == 50)
            let mixed = Array(first.prefix(300)) + fresh + fresh.prefix(10) + today + Rows.make(appID: 1, count: 5, seed: 15)
            let counts = try writer.write(mixed)
            #expect(counts.accepted == 305 && counts.duplicates == 300 + 10 + 50)
            // Another app's ids in the closed day are its own.
            let sameIDsOtherApp = first.prefix(100).map { row -> EventRow in
                var row = row
                row.appID = 2
                return row
            }
            #expect(try writer.write(sameIDsOtherApp).accepted == 100)
            let (rows, distinct) = try Self.stored(day, fixture)
            #expect(rows == 2_000 + 500 + 300 + 100 && distinct == rows)
            // The rollup queue has the closed day again (its rollup is recomputed).
            #expect(try fixture.count("SELECT count(*) FROM rollup_queue WHERE day = DATE '1970-01-01' + \(day)") > 2)
        }
    }

    /// Several connections retry the same late events into a closed day at once, each in its own
    /// order and split: every event is stored once and accepted once.
    @Test func concurrentLateRetriesAreStoredOnce() throws {
        try StorageFixture.with(prefix: "closedrace") { fixture in
            let day = Rows.today - 4
            let setup = fixture.makeWriter()
            #expect(try setup.write(Rows.make(appID: 1, count: 1_000, seed: 21, day: day)).accepted == 1_000)
            #expect(try setup.partitions.close(on: fixture.connect()) == [Rows.date(day)])
            setup.shutdown()

            let late = Rows.make(appID: 1, count: 3_000, seed: 22, day: day)
            let stored = Rows.make(appID: 1, count: 1_000, seed: 21, day: day)
            let senders = 4
            let writers = (0..<senders).map { _ in fixture.makeWriter(writers: 2, maxRows: 700) }
            defer { writers.forEach { $0.shutdown() } }
            let accepted = SharedTotal()
            let failures = SharedTotal()
            let group = DispatchGroup()
            for sender in 0..<senders {
                group.enter()
                Thread {
                    defer { group.leave() }
                    var generator = SplitMix64(seed: UInt64(sender) + 100)
                    var rows = late + stored.prefix(200)
                    rows.shuffle(using: &generator)
                    let chunk = 150 + sender * 40
                    // Each chunk twice at once from two threads of this sender: retries in flight.
                    for start in stride(from: 0, to: rows.count, by: chunk) {
                        let slice = Array(rows[start..<min(start + chunk, rows.count)])
                        let inner = DispatchGroup()
                        for _ in 0..<2 {
                            inner.enter()
                            Thread {
                                defer { inner.leave() }
                                do {
                                    accepted.add(try writers[sender].write(slice).accepted)
                                } catch {
                                    failures.add(1)
                                }
                            }.start()
                        }
                        inner.wait()
                    }
                }.start()
            }
            group.wait()
            #expect(failures.value == 0)
            #expect(accepted.value == 3_000)
            let (rows, distinct) = try Self.stored(day, fixture)
            #expect(rows == 4_000 && distinct == 4_000)
        }
    }

    /// Writers keep sending new events and retries into a day while maintenance closes it: nothing
    /// is stored twice and every new event is accepted exactly once, whichever side of the closing
    /// each transaction falls on.
    @Test func writesRacingTheClosingAreStoredOnce() throws {
        try StorageFixture.with(prefix: "closing") { fixture in
            for round in 0..<3 {
                let day = Rows.today - 2 - Int32(round)
                // The day exists before the writers start (three writers creating it at once would
                // race each other's CREATE TABLE).
                try TestDatabase.ensureEventPartitions(through: CivilDateText.iso(day), on: fixture.connect())
                let writers = (0..<3).map { _ in fixture.makeWriter(writers: 2, maxRows: 400) }
                let accepted = SharedTotal()
                let failures = SharedTotal()
                let failure = OutcomeBox()
                let sent = SharedTotal()
                let stop = Flag()
                let group = DispatchGroup()
                for (index, writer) in writers.enumerated() {
                    group.enter()
                    Thread {
                        defer { group.leave() }
                        var batch = 0
                        var previous: [EventRow] = []
                        while !stop.isSet || batch < 4 {
                            // New events, plus the previous batch again (a retry), plus an event
                            // another writer also sends.
                            let fresh = Rows.make(appID: 1, count: 120, seed: UInt64(round * 1_000_000 + index * 10_000 + batch), day: day)
                            let shared = Rows.make(appID: 1, count: 5, seed: UInt64(round * 1_000_000 + 999_000 + batch), day: day)
                            do {
                                accepted.add(try writer.write(fresh + previous + shared).accepted)
                                sent.add(1)
                            } catch {
                                failures.add(1)
                                failure.set(String(reflecting: error))
                            }
                            previous = fresh
                            batch += 1
                        }
                    }.start()
                }
                // Close the day while they write (after some rows are in, so that it has events).
                let connection = try fixture.connect()
                while try fixture.count("SELECT count(*) FROM events WHERE day = DATE '1970-01-01' + \(day)") == 0 {
                    Thread.sleep(forTimeInterval: 0.01)
                }
                var closed: [CivilDate] = []
                for _ in 0..<50 where closed.isEmpty {
                    closed = try writers[0].partitions.close(on: connection, today: Rows.date(day + 2))
                }
                stop.set()
                group.wait()
                writers.forEach { $0.shutdown() }
                #expect(closed == [Rows.date(day)])
                #expect(failures.value == 0, "\(failure.value ?? "")")
                let (rows, distinct) = try Self.stored(day, fixture)
                #expect(rows == distinct, "round \(round): \(rows) rows, \(distinct) distinct")
                #expect(accepted.value == rows, "round \(round)")
                #expect(sent.value >= 12)
            }
        }
    }

    /// The two orders of a write on the open-day path and the closing, step by step on two
    /// connections (sql/0015, point 3): a write that inserted while the unique index existed holds
    /// the closing off until it ends; a write that inserted after the closing committed is refused
    /// by the check that ends its transaction (SQLSTATE MR001), before it commits.
    @Test(.enabled(if: !TestDatabase.distributed, "waits are observed in the single node's pg_stat_activity"))
    func theClosingAndAnOpenDayWriteAreSerialized() throws {
        try StorageFixture.with(prefix: "closeorder") { fixture in
            let day = Rows.today - 2
            let writer = fixture.makeWriter()
            defer { writer.shutdown() }
            let rows = Rows.make(appID: 1, count: 20, seed: 31, day: day)
            #expect(try writer.write(Array(rows.prefix(10))).accepted == 10)
            let date = "DATE '1970-01-01' + \(day)"
            func insert(_ row: EventRow, on connection: PostgresConnection) throws {
                try connection.execute("""
                    INSERT INTO events (app_id, day, time, event_id, element_type_id)
                    VALUES (1, DATE '1970-01-01' + \(day), now(), \(row.eventUUID), 1)
                    """)
            }

            // 1. The write inserts first; the closing waits for it; the write's check passes.
            let open = try fixture.connect()
            try open.execute(unsafeSQL: "BEGIN")
            try insert(rows[10], on: open)
            let closer = try fixture.connect()
            let closerPID: Int32 = try closer.query("SELECT pg_backend_pid()")[0].decode(at: 0)
            let outcome = OutcomeBox()
            let done = DispatchSemaphore(value: 0)
            Thread {
                do {
                    outcome.set("\(try closer.query(PostgresQuery(unsafeSQL: "SELECT close_event_partition(\(date))"))[0].decode(Bool.self, at: 0))")
                } catch {
                    outcome.set("failed: \(error)")
                }
                done.signal()
            }.start()
            let observer = try fixture.connect()
            var waiting = false
            for _ in 0..<3_000 where !waiting {
                waiting = try observer.query("""
                    SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = \(closerPID) AND wait_event_type = 'Lock')
                    """)[0].decode(Bool.self, at: 0)
                if !waiting { Thread.sleep(forTimeInterval: 0.01) }
            }
            #expect(waiting, "the closing waits for the open write's lock")
            #expect(try open.query(PostgresQuery(unsafeSQL: "SELECT check_event_days_open(ARRAY[\(date)])")).first?
                .decode(Bool.self, at: 0) == true)
            try open.execute(unsafeSQL: "COMMIT")
            _ = done.wait(timeout: .now() + 120)
            #expect(outcome.value == "true")

            // 2. The closing has committed: a write on the open-day path finds no unique index (the
            // insert of a stored id goes through), and its check refuses it, so nothing commits.
            try open.execute(unsafeSQL: "BEGIN")
            try insert(rows[10], on: open)
            let refused = #expect(throws: PostgresError.self) {
                try open.query(PostgresQuery(unsafeSQL: "SELECT check_event_days_open(ARRAY[\(date)])"))
            }
            #expect(refused?.sqlState == "MR001")
            try open.execute(unsafeSQL: "ROLLBACK")
            let before = try Self.stored(day, fixture)
            #expect(before.rows == 11 && before.distinct == 11)
            // Through the writer, the same ids are duplicates and the others are stored once.
            let again = try writer.write(rows)
            #expect(again.accepted == 9 && again.duplicates == 11)
            let after = try Self.stored(day, fixture)
            #expect(after.rows == 20 && after.distinct == 20)
        }
    }
}

/// A day number as text.
enum CivilDateText {
    /// `YYYYMMDD`.
    static func compact(_ day: Int32) -> String { iso(day).filter { $0 != "-" } }
    /// `YYYY-MM-DD`.
    static func iso(_ day: Int32) -> String { CivilDate(dayNumber: Int(day)).description }
}

/// A thread-safe running total.
final class SharedTotal: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ n: Int) { lock.withLock { total += n } }
    var value: Int { lock.withLock { total } }
}

/// A thread-safe flag.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func set() { lock.withLock { raised = true } }
    var isSet: Bool { lock.withLock { raised } }
}

/// A thread-safe optional string.
final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    func set(_ value: String) { lock.withLock { stored = value } }
    var value: String? { lock.withLock { stored } }
}
