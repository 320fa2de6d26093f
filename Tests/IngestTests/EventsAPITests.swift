import CivilTime
import Foundation
import HTTP
import Ingest
import Postgres
import Ranking
import Storage
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct EventsAPITests {
    @Test func validBatchIsStoredFieldByField() throws {
        try Daemon.with { (daemon) throws in
            let time = Payload.now(offsetSeconds: -30)
            let select = Payload.event(id: "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293", time: time, command: "reply",
                                       extra: #""kind":"select","position":3,"latency_ms":840,"menu_version":"2026.11.1","user":"5d41402abc4b2a76","session":"s-81","trigger":"long_press""#)
            let dismiss = Payload.event(id: "0193a4c2-6f1e-7c3a-9d2b-4e5f60718294", time: time, elementType: "mail.folder",
                                        command: nil, extra: #""kind":"dismiss","user":"5d41402abc4b2a76","platform":"macOS 15""#)
            let body = Payload.batch([select, dismiss], sentAt: Payload.now(),
                                     context: #"{"app_version":"5.2.1","platform":"iOS 18.1","locale":"ru_RU","is_test":false}"#)
            let reply = try daemon.post(body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.accepted == 2 && reply.duplicates == 0 && reply.rejected.isEmpty)
            #expect(reply.json["server_time"] is String)

            let rows = try daemon.schema.connect().query("""
                SELECT e.app_id, e.event_id::text, t.name, c.name, x.app_version, x.platform, x.locale, x.is_test,
                       x.menu_version, x.trigger, e.position, e.latency_ms, e.user_hash, e.session_hash,
                       to_char(e.time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), e.day = (e.time AT TIME ZONE 'UTC')::date,
                       e.person_bucket
                FROM events e
                JOIN element_types t ON t.app_id = e.app_id AND t.element_type_id = e.element_type_id
                LEFT JOIN commands c ON c.app_id = e.app_id AND c.command_id = e.command_id
                JOIN contexts x ON x.app_id = e.app_id AND x.context_id = e.context_id
                ORDER BY e.event_id
                """)
            try #require(rows.count == 2)
            let a = rows[0]
            #expect(try a.decode(Int32.self, at: 0) == daemon.alpha.app.appID)
            #expect(try a.decode(String.self, at: 1) == "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293")
            #expect(try a.decode(String.self, at: 2) == "mail.message")
            #expect(try a.decode(String?.self, at: 3) == "reply")
            #expect(try a.decode(String.self, at: 4) == "5.2.1")
            #expect(try a.decode(String.self, at: 5) == "iOS 18.1")
            #expect(try a.decode(String.self, at: 6) == "ru_RU")
            #expect(try a.decode(Bool.self, at: 7) == false)
            #expect(try a.decode(String.self, at: 8) == "2026.11.1")
            #expect(try a.decode(String.self, at: 9) == "long_press")
            #expect(try a.decode(Int16?.self, at: 10) == 3)
            #expect(try a.decode(Int32?.self, at: 11) == 840)
            #expect(try a.decode(String.self, at: 14) == time)
            #expect(try a.decode(Bool.self, at: 15))
            let b = rows[1]
            #expect(try b.decode(String.self, at: 2) == "mail.folder")
            #expect(b.isNull(at: 3))
            // The event's own platform overrides the batch context.
            #expect(try b.decode(String.self, at: 5) == "macOS 15")
            // The user id is hashed again (same user, same hash), never stored in clear.
            let userA: Int64 = try a.decode(at: 12)
            #expect(try b.decode(Int64.self, at: 12) == userA)
            #expect(userA != Int64(bitPattern: 0x5d41402abc4b2a76))
            #expect(!a.isNull(at: 13) && b.isNull(at: 13))
            // The person's bucket comes from the raw id, as the database-free run computes it (sql/0020).
            #expect(try a.decode(Int16?.self, at: 16) == Int16(PersonBucket.of(user: "5d41402abc4b2a76")))
            #expect(try b.decode(Int16?.self, at: 16) == Int16(PersonBucket.of(user: "5d41402abc4b2a76")))
            // The rollup is told which day changed, in the same transaction.
            #expect(try daemon.count("SELECT count(*) FROM rollup_queue WHERE app_id = \(daemon.alpha.app.appID)") >= 1)
            // One log line per request, with its id, route, status, events and duration.
            let line = try #require(daemon.logLines.all.last { $0.contains("msg=\"request\"") || $0.contains("msg=request") })
            for part in ["request_id=", "route=/v1/events", "status=200", "events=2", "duration_ms="] {
                #expect(line.contains(part), "\(line)")
            }
        }
    }

    @Test func mixedBatchStoresTheValidEventsAndReportsEachBadOne() throws {
        try Daemon.with { (daemon) throws in
            let events = [
                Payload.event(),
                Payload.event(elementType: "has space"),
                Payload.event(id: "not-a-uuid"),
                Payload.event(command: nil),
                Payload.event(time: Payload.now(offsetSeconds: 86_400)),
                Payload.event(time: Payload.now(offsetSeconds: -100 * 86_400)),
                "42",
                Payload.event(),
            ]
            let reply = try daemon.post(Payload.batch(events))
            #expect(reply.status == 200)
            #expect(reply.accepted == 2)
            #expect(reply.rejected.map { $0["index"] as? Int } == [1, 2, 3, 4, 5, 6])
            #expect(reply.rejected.map { $0["code"] as? String } == [
                "invalid_element_type", "invalid_id", "missing_field", "time_in_future", "time_too_old", "invalid_event",
            ])
            #expect(reply.rejected.allSatisfy { ($0["message"] as? String)?.isEmpty == false })
            #expect(try daemon.count("SELECT count(*) FROM events") == 2)
        }
    }

    /// The daemon checks events against its configured clock (`IngestConfiguration.clock`), not the
    /// system's: with the clock fixed an hour ahead, an event half a minute before that instant
    /// (an hour ahead of the system's clock, which would refuse it as in the future) is stored, one
    /// ten minutes after it is refused, and the reply's `server_time` is the fixed instant.
    @Test func eventsAreCheckedAgainstTheDaemonsClock() throws {
        let second = WallClock.system.now().microsecondsSince1970 / 1_000_000
        let fixed = UTCTimestamp(microsecondsSince1970: (second + 3600) * 1_000_000 + 250_000)
        func text(_ offsetSeconds: Int64) -> String {
            UTCTimestamp(microsecondsSince1970: fixed.microsecondsSince1970 + offsetSeconds * 1_000_000).civil
                .rfc3339(fractionDigits: 3)
        }
        try Daemon.with(configure: { $0.clock = .fixed(fixed) }) { (daemon) throws in
            let reply = try daemon.post(Payload.batch([Payload.event(time: text(-30)), Payload.event(time: text(600))]))
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.accepted == 1)
            #expect(reply.rejected.map { $0["index"] as? Int } == [1])
            #expect(reply.rejected.map { $0["code"] as? String } == ["time_in_future"])
            #expect(reply.json["server_time"] as? String == fixed.civil.rfc3339(fractionDigits: 3))
            let stored = try daemon.schema.connect().query(
                "SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM events")
                .map { try $0.decode(String.self, at: 0) }
            #expect(stored == [text(-30)])
        }
        // The system's clock refuses the same event.
        try Daemon.with { (daemon) throws in
            let reply = try daemon.post(Payload.batch([Payload.event(time: text(-30))]))
            #expect(reply.accepted == 0 && reply.rejected.map { $0["code"] as? String } == ["time_in_future"])
        }
    }

    @Test func sameBatchTwiceReportsDuplicatesAndStoresNothingTwice() throws {
        try Daemon.with { (daemon) throws in
            let body = Payload.batch(Payload.events(25))
            let first = try daemon.post(body)
            #expect(first.accepted == 25 && first.duplicates == 0)
            let second = try daemon.post(body)
            #expect(second.status == 200 && second.accepted == 0 && second.duplicates == 25)
            // The same id twice inside one batch.
            let event = Payload.event()
            let twice = try daemon.post(Payload.batch([event, event]))
            #expect(twice.accepted == 1 && twice.duplicates == 1)
            #expect(try daemon.count("SELECT count(*) FROM events") == 26)
        }
    }

    @Test func gzipBodiesAreInflatedAndBombsStopAtTheLimit() throws {
        try Daemon.with(configure: { $0.maxBodyBytes = 64 * 1024 }) { (daemon) throws in
            let body = Array(Payload.batch(Payload.events(20)).utf8)
            let gzip = try daemon.post(bytes: Gzip.deflate(body), headers: ["Content-Type": "application/json",
                                                                            "Content-Encoding": "gzip"])
            #expect(gzip.status == 200 && gzip.accepted == 20, "\(gzip.text)")
            // 10 MB of spaces inside valid JSON compress to a few KB; inflation stops at 64 KB.
            var bomb = Array(#"{"events":["#.utf8)
            bomb += [UInt8](repeating: 0x20, count: 10 << 20)
            bomb += Array("]}".utf8)
            let compressed = Gzip.deflate(bomb, level: 9)
            #expect(compressed.count < 64 * 1024)
            let reply = try daemon.post(bytes: compressed, headers: ["Content-Type": "application/json",
                                                                     "Content-Encoding": "gzip"])
            #expect(reply.status == 413 && reply.error == "payload_too_large")
            let corrupt = try daemon.post(bytes: [0x1f, 0x8b, 1, 2, 3], headers: ["Content-Type": "application/json",
                                                                                   "Content-Encoding": "gzip"])
            #expect(corrupt.status == 400)
            #expect(try daemon.count("SELECT count(*) FROM events") == 20)
        }
    }

    @Test func skewedSentAtShiftsEventTimes() throws {
        try Daemon.with { (daemon) throws in
            // The client's clock is two hours behind: its "now" is two hours ago.
            let clientNow = Payload.now(offsetSeconds: -7200)
            let event = Payload.event(time: Payload.now(offsetSeconds: -7200 - 5))
            let reply = try daemon.post(Payload.batch([event], sentAt: clientNow))
            #expect(reply.accepted == 1)
            let age = try daemon.schema.connect().query(
                "SELECT extract(epoch FROM now() - time)::float8 FROM events")[0].decode(Double.self, at: 0)
            #expect(age > 0 && age < 60, "stored time is \(age) s old; the shift was not applied")
            // A client two hours ahead, with an event "in the future" by its own clock: shifted back, accepted.
            let ahead = try daemon.post(Payload.batch([Payload.event(time: Payload.now(offsetSeconds: 7200))],
                                                      sentAt: Payload.now(offsetSeconds: 7200)))
            #expect(ahead.accepted == 1)
            // Within the threshold nothing is shifted.
            let small = try daemon.post(Payload.batch([Payload.event(time: Payload.now(offsetSeconds: -3600))],
                                                      sentAt: Payload.now(offsetSeconds: -10)))
            #expect(small.accepted == 1)
            #expect(try daemon.count("SELECT count(*) FROM events WHERE time < now() - interval '50 minutes'") == 1)
        }
    }

    /// A retry whose skew correction lands on the other side of midnight UTC than the first
    /// attempt's (the device's clock was fixed in between) is still a duplicate: the dedupe key
    /// takes the client's own day.
    @Test func aRetryAcrossMidnightAfterSkewCorrectionIsADuplicate() throws {
        try Daemon.with { (daemon) throws in
            let midnight = (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            // Stamped one minute before today's midnight by the client's clock.
            let time = formatter.string(from: Date(timeIntervalSince1970: midnight - 60))
            let event = Payload.event(time: time)
            // First attempt: the clock is five minutes slow, so the corrected time is past midnight.
            let first = try daemon.post(Payload.batch([event], sentAt: Payload.now(offsetSeconds: -300)))
            #expect(first.accepted == 1)
            // The retry, once the clock is right: no correction, the time stays before midnight.
            let retry = try daemon.post(Payload.batch([event], sentAt: Payload.now()))
            #expect(retry.accepted == 0 && retry.duplicates == 1, "\(retry.text)")
            #expect(try daemon.count("SELECT count(*) FROM events") == 1)
            // Stored on the client's day, with the corrected time.
            let stored = try daemon.schema.connect().query(
                "SELECT (day - DATE '1970-01-01')::int8, extract(epoch FROM time)::float8 FROM events")[0]
            #expect(try stored.decode(Int.self, at: 0) == Int(midnight / 86_400) - 1)
            #expect(try stored.decode(Double.self, at: 1) > midnight)
        }
    }

    @Test func keysOnlyReachTheirOwnApp() throws {
        try Daemon.with { (daemon) throws in
            let event = Payload.event()
            #expect(try daemon.post(Payload.batch([event]), key: daemon.alpha.writeKey).accepted == 1)
            // Beta's key stores beta's events: the same id is a different event, in beta.
            #expect(try daemon.post(Payload.batch([event]), key: daemon.beta.writeKey).accepted == 1)
            let alphaID = daemon.alpha.app.appID
            let betaID = daemon.beta.app.appID
            #expect(try daemon.count("SELECT count(*) FROM events WHERE app_id = \(alphaID)") == 1)
            #expect(try daemon.count("SELECT count(*) FROM events WHERE app_id = \(betaID)") == 1)
            // Dictionaries are per app too.
            #expect(try daemon.count("SELECT count(DISTINCT app_id) FROM element_types") == 2)
        }
    }

    @Test func revokedKeyIsRefusedWith403() throws {
        try Daemon.with { (daemon) throws in
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
            _ = try AppStore(pool: daemon.pool).revokeKey(prefix: String(daemon.alpha.writeKey.prefix(14)))
            let reply = try daemon.post(Payload.batch(Payload.events(1)))
            #expect(reply.status == 403 && reply.error == "revoked_key")
            #expect(try daemon.count("SELECT count(*) FROM events") == 1)
        }
    }

    @Test func dictionaryCapsRejectNewNamesWithTheirOwnCodes() throws {
        try Daemon.with(configure: { $0.dictionaryLimits = DictionaryLimits(maxElementTypes: 2, maxCommands: 3) }) { (daemon) throws in
            let first = try daemon.post(Payload.batch([
                Payload.event(elementType: "a.one", command: "c1"), Payload.event(elementType: "a.two", command: "c2"),
            ]))
            #expect(first.accepted == 2)
            let second = try daemon.post(Payload.batch([
                Payload.event(elementType: "a.one", command: "c3"),
                Payload.event(elementType: "a.three", command: "c1"),
                Payload.event(elementType: "a.two", command: "c4"),
                Payload.event(elementType: "a.two", command: "c1"),
            ]))
            #expect(second.accepted == 2)
            #expect(second.rejected.map { $0["code"] as? String } == ["too_many_element_types", "too_many_commands"])
            #expect(second.rejected.map { $0["index"] as? Int } == [1, 2])
            #expect(try daemon.count("SELECT count(*) FROM element_types") == 2)
            #expect(try daemon.count("SELECT count(*) FROM commands") == 3)
        }
    }

    @Test func concurrentClientsStoreExactlyWhatWasAccepted() throws {
        try Daemon.with { (daemon) throws in
            let clients = 16
            let total = Totals()
            DispatchQueue.concurrentPerform(iterations: clients) { index in
                let client = daemon.client()
                for round in 0..<15 {
                    // Every third request repeats the previous one: duplicates across clients' retries.
                    let events = Payload.events(40)
                    do {
                        let reply = try daemon.post(Payload.batch(events), client: client)
                        total.add(status: reply.status, accepted: reply.accepted, duplicates: reply.duplicates)
                        if round % 3 == 0 {
                            let again = try daemon.post(Payload.batch(events), client: client)
                            total.add(status: again.status, accepted: again.accepted, duplicates: again.duplicates)
                        }
                    } catch {
                        total.add(status: -1, accepted: 0, duplicates: 0)
                    }
                    _ = index
                }
            }
            let result = total.snapshot
            #expect(result.statuses == [200])
            #expect(result.accepted == clients * 15 * 40)
            #expect(result.duplicates == clients * 5 * 40)
            #expect(try daemon.count("SELECT count(*) FROM events") == result.accepted)
        }
    }
}

/// Sums replies from many threads.
final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private var accepted = 0
    private var duplicates = 0
    private var statuses = Set<Int>()
    private var errors: [String] = []

    func note(_ error: String) {
        lock.lock()
        errors.append(error)
        lock.unlock()
    }

    var notes: [String] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }

    func add(status: Int, accepted: Int, duplicates: Int) {
        lock.lock()
        statuses.insert(status)
        if status == 200 {
            self.accepted += accepted
            self.duplicates += duplicates
        }
        lock.unlock()
    }

    var snapshot: (accepted: Int, duplicates: Int, statuses: Set<Int>) {
        lock.lock()
        defer { lock.unlock() }
        return (accepted, duplicates, statuses)
    }
}
