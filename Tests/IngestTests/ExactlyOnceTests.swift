import Foundation
import HTTP
import Ingest
import Postgres
import Storage
import TestSupport
import Testing

/// Exactly once at every edge, through the real daemon: retries whose clock correction changed,
/// the retention edge, and days without a partition.
@Suite(TestDatabase.enabled) struct ExactlyOnceTests {
    static let day: Double = 86_400

    static func stamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The device's clock is two days behind; the first attempt sends `sent_at` (so it is corrected
    /// by two days), the retry does not (the app dropped it, or the clock was fixed). One row.
    @Test func aRetryWhoseCorrectionChangedIsADuplicate() throws {
        try Daemon.with { (daemon) throws in
            let now = Date().timeIntervalSince1970
            let event = Payload.event(time: Self.stamp(now - 2 * Self.day - 60))
            let first = try daemon.post(Payload.batch([event], sentAt: Self.stamp(now - 2 * Self.day)))
            #expect(first.status == 200 && first.accepted == 1, "\(first.text)")
            let retry = try daemon.post(Payload.batch([event]))
            #expect(retry.status == 200 && retry.accepted == 0 && retry.duplicates == 1, "\(retry.text)")
            let fixed = try daemon.post(Payload.batch([event], sentAt: Payload.now()))
            #expect(fixed.accepted == 0 && fixed.duplicates == 1, "\(fixed.text)")
            #expect(try daemon.count("SELECT count(*) FROM events") == 1)
            // Stored under the device's own day.
            #expect(try daemon.count("SELECT (day - DATE '1970-01-01')::int8 FROM events")
                    == Int(((now - 2 * Self.day - 60) / Self.day).rounded(.down)))
        }
    }

    /// A batch retried days late, after maintenance closed its day (sql/0015: no unique index on a
    /// closed day), is all duplicates; a new event for that day is stored, once.
    @Test func aRetryIntoAClosedDayIsADuplicate() throws {
        try Daemon.with { (daemon) throws in
            let now = Date().timeIntervalSince1970
            let day = (now / Self.day).rounded(.down) - 3
            let events = (0..<3).map { Payload.event(time: Self.stamp(day * Self.day + 3600 + Double($0))) }
            let first = try daemon.post(Payload.batch(events))
            #expect(first.status == 200 && first.accepted == 3, "\(first.text)")
            // Closed here, or by the daemon's own maintenance if it got there first.
            _ = try PartitionManager(retentionDays: 90, attempts: TestDatabase.ddlAttempts).close(on: daemon.schema.connect())
            #expect(try daemon.count("SELECT count(*) FROM closed_event_days WHERE day = DATE '1970-01-01' + \(Int(day))") == 1)
            let retry = try daemon.post(Payload.batch(events))
            #expect(retry.status == 200 && retry.accepted == 0 && retry.duplicates == 3, "\(retry.text)")
            let late = Payload.event(time: Self.stamp(day * Self.day + 7200))
            let mixed = try daemon.post(Payload.batch([late, events[0], late]))
            #expect(mixed.status == 200 && mixed.accepted == 1 && mixed.duplicates == 2, "\(mixed.text)")
            #expect(try daemon.count("SELECT count(*) FROM events") == 4)
        }
    }

    /// An event whose corrected time is just inside the retention, from a device whose clock is
    /// behind so that its own day is before the first day kept, is refused up front; whatever is
    /// accepted survives the next maintenance run.
    @Test func anEventAtTheRetentionEdgeIsKeptOrRefused() throws {
        try Daemon.with(configure: { $0.retentionDays = 3 }) { (daemon) throws in
            let now = Date().timeIntervalSince1970
            let today = (now / Self.day).rounded(.down)
            let secondsIntoToday = now - today * Self.day
            // As sent: one minute before the first kept day (today - 3). The clock is behind by
            // the time of day plus ten minutes, so the corrected time is inside the 3-day window.
            let time = (today - 3) * Self.day - 60
            let behind = secondsIntoToday + 600
            let reply = try daemon.post(Payload.batch([Payload.event(time: Self.stamp(time))], sentAt: Self.stamp(now - behind)))
            #expect(reply.status == 200)
            #expect(reply.accepted == 0, "\(reply.text)")
            #expect(reply.rejected.first?["code"] as? String == "time_too_old", "\(reply.text)")
            // What was accepted outlives the maintenance run that follows.
            try PartitionManager(retentionDays: 3, attempts: TestDatabase.ddlAttempts).maintain(on: daemon.schema.connect())
            #expect(try daemon.count("SELECT count(*) FROM events") == max(0, reply.accepted))
        }
    }

    /// A day whose partition is missing (dropped by hand here) is not created on the request path:
    /// the batch gets 503 with Retry-After, the maintainer is woken and creates it off the request
    /// path, and the retry is stored.
    @Test func aMissingPartitionIs503UntilTheMaintainerMadeIt() throws {
        try Daemon.with { (daemon) throws in
            let now = Date().timeIntervalSince1970
            let yesterday = Int((now / Self.day).rounded(.down)) - 1
            let name = "events_" + Self.compact(yesterday)
            try daemon.schema.connect().execute(PostgresQuery(unsafeSQL: "DROP TABLE \(name)"))
            let event = Payload.event(time: Self.stamp(Double(yesterday) * Self.day + 3600))
            let first = try daemon.post(Payload.batch([event]))
            #expect(first.status == 503, "\(first.text)")
            #expect(first.headers["Retry-After"] != nil)
            var stored: Reply?
            for _ in 0..<300 {
                let retry = try daemon.post(Payload.batch([event]))
                if retry.status == 200 { stored = retry; break }
                #expect(retry.status == 503, "\(retry.text)\n\(daemon.logLines.all.suffix(12).joined(separator: "\n"))")
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(stored?.accepted == 1, "\(stored?.text ?? "no 200 after 300 retries")")
            #expect(try daemon.count("SELECT count(*) FROM events") == 1)
        }
    }

    /// A day whose table exists but is not attached yet (as on Citus, where the coordinator shows a
    /// new day before its workers have committed theirs): the catalog says the day exists, yet its
    /// rows find no partition. The batch gets 503 with Retry-After, never a 500, and the retry made
    /// once the day is attached is stored.
    @Test func aDayThatExistsButIsNotAttachedYetIs503() throws {
        try Daemon.with { (daemon) throws in
            let now = Date().timeIntervalSince1970
            let yesterday = Int((now / Self.day).rounded(.down)) - 1
            let name = "events_" + Self.compact(yesterday)
            let admin = try daemon.schema.connect()
            try admin.execute(PostgresQuery(unsafeSQL: "ALTER TABLE events DETACH PARTITION \(name)"))
            let event = Payload.event(time: Self.stamp(Double(yesterday) * Self.day + 3600))
            let first = try daemon.post(Payload.batch([event]))
            #expect(first.status == 503, "\(first.text)")
            #expect(first.headers["Retry-After"] != nil)
            #expect(try daemon.count("SELECT count(*) FROM events") == 0)
            let from = Self.isoDay(yesterday), to = Self.isoDay(yesterday + 1)
            try admin.execute(PostgresQuery(unsafeSQL: """
                ALTER TABLE events ATTACH PARTITION \(name) FOR VALUES FROM ('\(from)') TO ('\(to)')
                """))
            let retry = try daemon.post(Payload.batch([event]))
            #expect(retry.status == 200 && retry.accepted == 1, "\(retry.text)")
            #expect(try daemon.count("SELECT count(*) FROM events") == 1)
        }
    }

    /// A long reader (a transaction holding ACCESS SHARE on `events`, as pg_dump does) does not stop
    /// partitions from being created ahead, and ingestion goes on meanwhile.
    @Test func partitionsAreCreatedBesideALongReaderWhileIngestionContinues() throws {
        try Daemon.with { (daemon) throws in
            let reader = try daemon.schema.connect()
            try reader.execute(unsafeSQL: "BEGIN")
            _ = try reader.query("SELECT count(*) FROM events")
            let maintainer = try daemon.schema.connect()
            let done = DispatchSemaphore(value: 0)
            let outcome = OutcomeBox()
            Thread {
                do {
                    let (created, _) = try PartitionManager(retentionDays: 90, attempts: TestDatabase.ddlAttempts).maintain(
                        on: maintainer, today: PartitionManager.today().adding(days: 10))
                    outcome.set("created \(created)")
                } catch {
                    outcome.set("failed: \(error)")
                }
                done.signal()
            }.start()
            // Ingestion goes on while the partitions are being made.
            let during = try daemon.post(Payload.batch(Payload.events(5)))
            #expect(during.status == 200 && during.accepted == 5, "\(during.text)")
            // The creation finishes while the reader still holds its lock (the safety limit only
            // keeps a broken build from hanging the run).
            let finished = done.wait(timeout: .now() + 300) == .success
            #expect(finished)
            // Dropping expired days needs an exclusive lock: behind the reader it gives up after
            // its short lock timeout (and the maintainer retries later); creation does not wait.
            #expect(outcome.value == "created 10" || outcome.value?.contains("lock timeout") == true,
                    "\(outcome.value ?? "still waiting")")
            let last = Self.compact(PartitionManager.today().dayNumber + 13)
            #expect(try daemon.count("SELECT count(*) FROM pg_class WHERE relname = 'events_\(last)'") == 1)
            let after = try daemon.post(Payload.batch(Payload.events(5)))
            #expect(after.status == 200 && after.accepted == 5, "\(after.text)")
            try reader.execute(unsafeSQL: "COMMIT")
            if !finished { _ = done.wait(timeout: .now() + 60) }
            #expect(try daemon.count("SELECT count(*) FROM events") == 10)
        }
    }

    static func isoDay(_ day: Int) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: Double(day) * Self.day))
    }

    static func compact(_ day: Int) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd"
        return formatter.string(from: Date(timeIntervalSince1970: Double(day) * Self.day))
    }
}

final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    func set(_ value: String) { lock.lock(); text = value; lock.unlock() }
    var value: String? { lock.lock(); defer { lock.unlock() }; return text }
}
