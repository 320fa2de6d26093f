import Foundation
import HTTP
import Ingest
import Postgres
import Storage
import TestSupport
import Testing

/// Failures the database reports on a statement, through the real daemon: a full disk (SQLSTATE
/// 53100, raised by a trigger as PostgreSQL raises it when it cannot extend a file; a real full disk
/// is not something a test can make) is a 503 with Retry-After that `/readyz` reports; an ordinary
/// error is a 500. Either is logged once, with its request id, route and the server's text, which
/// the client never reads. Not on Citus, which refuses triggers on distributed tables (the code
/// under test is the same there).
@Suite(.enabled(if: TestDatabase.shouldRun && !TestDatabase.distributed, "needs PostgreSQL, not Citus (triggers)"))
struct FailureLoggingTests {
    @Test func aFullDiskIs503WithRetryAfterAndReadyzSaysSoUntilAWriteSucceeds() throws {
        try Daemon.with { (daemon) throws in
            #expect(try daemon.post(Payload.batch(Payload.events(2))).status == 200)
            let admin = try daemon.schema.connect()
            try admin.execute(unsafeSQL: """
                CREATE FUNCTION simulate_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device'
                        USING ERRCODE = 'disk_full', HINT = 'Check free disk space.';
                END $$;
                CREATE TRIGGER simulate_disk_full BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION simulate_disk_full();
                """)
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            headers.set("X-Request-Id", "disk-full-1")
            let reply = try daemon.post(Payload.batch(Payload.events(3)), headers: headers)
            #expect(reply.status == 503, "\(reply.text)")
            #expect(Int(reply.headers["Retry-After"] ?? "") ?? 0 >= 1)
            #expect(reply.error == "database_unavailable")
            #expect(!reply.text.contains("base/1/2") && !reply.text.contains("53100") && !reply.text.contains("COPY"),
                    "no server text: \(reply.text)")
            let ready = try daemon.get("/readyz")
            #expect(ready.status == 503 && ready.json["reason"] as? String == "disk_full", "\(ready.text)")
            #expect(Int(ready.headers["Retry-After"] ?? "") ?? 0 >= 1)
            #expect(!ready.text.contains("base/1/2"))
            let lines = daemon.logLines.all.filter {
                $0.contains("request failed") && $0.split(separator: " ").contains("request_id=disk-full-1")
            }
            #expect(lines.count == 1, "\(lines)")
            let line = lines.first ?? ""
            #expect(line.contains("level=warning") && line.contains("route=/v1/events") && line.contains("status=503"), "\(line)")
            #expect(line.contains("53100") && line.contains("[disk_full]") && line.contains("No space left on device"), "\(line)")

            // Room again: the retried batch is stored and readiness comes back.
            try admin.execute(unsafeSQL: "DROP TRIGGER simulate_disk_full ON events")
            let after = try daemon.post(Payload.batch(Payload.events(3)))
            #expect(after.status == 200 && after.accepted == 3, "\(after.text)")
            #expect(try daemon.get("/readyz").status == 200)
        }
    }

    @Test func a500IsLoggedOnceWithItsRequestIDAndTheClientReadsNoServerText() throws {
        try Daemon.with { (daemon) throws in
            try daemon.schema.connect().execute(unsafeSQL: """
                CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'secret server detail'; END $$;
                CREATE TRIGGER refuse_events BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION refuse_events();
                """)
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            headers.set("X-Request-Id", "bug-500-1")
            let reply = try daemon.post(Payload.batch(Payload.events(2)), headers: headers)
            #expect(reply.status == 500 && reply.error == "internal_error", "\(reply.text)")
            #expect(!reply.text.contains("secret") && !reply.text.contains("P0001"), "\(reply.text)")
            let lines = daemon.logLines.all.filter {
                $0.contains("request failed") && $0.split(separator: " ").contains("request_id=bug-500-1")
            }
            #expect(lines.count == 1, "\(lines)")
            let line = lines.first ?? ""
            #expect(line.contains("level=error") && line.contains("status=500") && line.contains("route=/v1/events"), "\(line)")
            #expect(line.contains("secret server detail") && line.contains("P0001"), "\(line)")
            // A 500 is not an outage: readiness stays.
            #expect(try daemon.get("/readyz").status == 200)
        }
    }
}
