import Events
import Foundation
import HTTP
import Ingest
import Observability
import Postgres
import Storage
import TestSupport
import Testing

/// A real PostgreSQL that refuses work, under the real daemon over real HTTP: read-only
/// (SQLSTATE 25006), out of connection slots (53300), shutting down (57P03) and stopped (the
/// connection lost). Each fault answers 503 with `Retry-After` (never a 500, and no server text),
/// `/readyz` says not ready and why, each 503 is logged once with its request id and cause, and
/// once PostgreSQL is back every batch the client retried is stored exactly once. Each test has a
/// scratch cluster of its own, so the suites that share the test database are not disturbed (a
/// plain PostgreSQL: not run by `scripts/test --citus`, whose schemas are distributed).
@Suite(.enabled(if: TestDatabase.shouldRun && ScratchServer.isPossible && !TestDatabase.distributed,
                "needs PostgreSQL's server binaries for a scratch cluster, and a plain PostgreSQL"))
struct DatabaseFaultTests {
    @Test func aReadOnlyDatabaseAnswers503AndNothingIsLostOnceItIsWritable() throws {
        try FaultBench.with { bench in
            try bench.sendUntilAcknowledged(20)
            // New sessions of this database are read-only; the daemon's are ended, so its next ones are.
            try bench.alterDatabase("SET default_transaction_read_only = on")
            try bench.endDaemonSessions()

            try bench.writesFail(because: "read_only", sqlState: "25006")
            try bench.expectNotReady(reason: "read_only")

            try bench.alterDatabase("RESET default_transaction_read_only")
            try bench.endDaemonSessions()
            try bench.retryPending()
            try bench.sendUntilAcknowledged(20)
            try bench.expectReady()
            try bench.expectEveryEventStoredOnce()
        }
    }

    @Test func noConnectionSlotLeftAnswers503AndNothingIsLostOnceOneIsFree() throws {
        try FaultBench.with(maxConnections: 16) { bench in
            try bench.sendUntilAcknowledged(20)
            // The daemon's sessions end and the test takes every slot the server has: the daemon's
            // next connection is refused with "sorry, too many clients already" (53300).
            try bench.endDaemonSessions()
            var hogs: [PostgresConnection] = []
            while hogs.count < 16 {
                do {
                    hogs.append(try PostgresConnection(bench.scratch.url))
                } catch {
                    #expect("\(error)".contains("too many clients"), "\(error)")
                    break
                }
            }
            #expect(!hogs.isEmpty)

            try bench.writesFail(because: "too_many_connections", sqlState: nil)
            try bench.expectNotReady(reason: "too_many_connections")

            hogs.removeAll()
            try bench.retryPending()
            try bench.sendUntilAcknowledged(20)
            try bench.expectReady()
            try bench.expectEveryEventStoredOnce()
        }
    }

    /// A hot standby (streaming from the scratch cluster) takes reads and refuses writes with
    /// 25006; promoted, it takes them, and the batches the client retried are stored once.
    @Test func aStandbyInRecoveryAnswers503AndNothingIsLostOnceItIsPromoted() throws {
        try ScratchServer.with { scratch in
            let writeKey = try FaultBench.prepare(scratch.url)
            try scratch.withStandby { standby in
                // The standby has replayed the app and its partitions.
                var replayed = false
                for _ in 0..<600 where !replayed {
                    replayed = (try? PostgresConnection(standby.url).query("SELECT count(*) FROM apps")[0].decode(Int.self, at: 0)) == 1
                    if !replayed { Thread.sleep(forTimeInterval: 0.1) }
                }
                try #require(replayed, "the standby never replayed the app")
                try FaultBench.run(scratch: scratch, url: standby.url, writeKey: writeKey) { bench in
                    try bench.writesFail(because: "read_only", sqlState: "25006")
                    try bench.expectNotReady(reason: "read_only")
                    #expect(try bench.get("/healthz").status == 200)

                    try standby.promote()
                    try bench.retryPending()
                    try bench.sendUntilAcknowledged(20)
                    try bench.expectReady()
                    try bench.expectEveryEventStoredOnce()
                }
            }
        }
    }

    @Test func aServerShuttingDownThenStoppedAnswers503AndNothingIsLostOnceItIsBack() throws {
        try FaultBench.with { bench in
            try bench.sendUntilAcknowledged(20)
            // A smart shutdown refuses new sessions with 57P03 while the test's own goes on.
            try bench.scratch.beginSmartShutdown()
            try bench.endDaemonSessions()
            try bench.writesFail(because: "cannot_connect_now", sqlState: nil)
            try bench.expectNotReady(reason: "cannot_connect_now")

            // The last session ends, the server stops: every connection is refused.
            bench.closeAdmin()
            bench.scratch.stopIfRunning()
            try bench.writesFail(because: "unreachable", sqlState: nil)
            try bench.expectNotReady(reason: "unreachable")
            #expect(try bench.get("/healthz").status == 200)

            try bench.scratch.start()
            try bench.retryPending()
            try bench.sendUntilAcknowledged(20)
            try bench.expectReady()
            try bench.expectEveryEventStoredOnce()
        }
    }
}

/// The daemon in process over a scratch cluster, with a client that keeps every batch until it
/// is acknowledged, and the test's own session opened before any fault (it can still act while
/// new sessions are refused or read-only).
final class FaultBench: @unchecked Sendable {
    let scratch: ScratchServer
    /// The database the daemon uses (the scratch cluster, or its standby).
    let url: String
    let port: UInt16
    let writeKey: String
    let logLines: LogLines
    private var adminConnection: PostgresConnection?
    /// Batches answered 503, by body, with their event count, to send again.
    private var pending: [(body: String, count: Int)] = []
    private var sentEvents = 0
    private var acknowledged = 0
    private var requests = 0

    var admin: PostgresConnection {
        get throws {
            guard let adminConnection else { throw PostgresError(kind: .connection, message: "the admin session is closed") }
            return adminConnection
        }
    }

    private init(scratch: ScratchServer, url: String, port: UInt16, writeKey: String, logLines: LogLines,
                 admin: PostgresConnection) {
        self.scratch = scratch
        self.url = url
        self.port = port
        self.writeKey = writeKey
        self.logLines = logLines
        adminConnection = admin
    }

    /// Runs `body` with the daemon started on a fresh scratch cluster (with at most
    /// `maxConnections` sessions when given).
    static func with(maxConnections: Int? = nil, _ body: (FaultBench) throws -> Void) throws {
        try ScratchServer.with { scratch in
            if let maxConnections {
                try PostgresConnection(scratch.url).execute(unsafeSQL: "ALTER SYSTEM SET max_connections = \(maxConnections)")
                try scratch.restart()
            }
            let writeKey = try prepare(scratch.url)
            try run(scratch: scratch, url: scratch.url, writeKey: writeKey, body)
        }
    }

    /// Migrates the database at `url`, creates the app and today's partitions; the app's write key.
    static func prepare(_ url: String) throws -> String {
        let connection = try PostgresConnection(url)
        try Migrations.apply(on: connection)
        let pool = PostgresPool(configuration: .init(conninfo: url, maxConnections: 1))
        defer { pool.close() }
        let app = try AppStore(pool: pool).create(name: "alpha")
        try PartitionManager(window: EventPolicy().window!, createOnDemand: false).maintain(on: connection)
        return app.writeKey
    }

    /// Runs `body` with the daemon started on the database at `url`.
    static func run(scratch: ScratchServer, url: String, writeKey: String, _ body: (FaultBench) throws -> Void) throws {
        do {
            var configuration = IngestConfiguration()
            configuration.port = 0
            configuration.database = url
            // The key stays cached through the fault, so the writer's path and readiness answer.
            configuration.keyCacheTTL = .seconds(600)
            configuration.poolSize = 2
            configuration.ingestPoolSize = 1
            let lines = LogLines()
            let server = IngestServer(configuration: configuration,
                                      logger: Logger(label: "faults", level: .info,
                                                     output: LogOutput(format: .logfmt) { line in lines.append(line) }))
            let port = try server.start()
            defer { server.shutdown() }
            let bench = FaultBench(scratch: scratch, url: url, port: port, writeKey: writeKey, logLines: lines,
                                   admin: try PostgresConnection(url))
            defer { bench.closeAdmin() }
            try body(bench)
        }
    }

    func closeAdmin() {
        adminConnection = nil
    }

    func get(_ path: String) throws -> Reply {
        Reply(try HTTPClient(port: port, timeout: .seconds(30)).send(method: "GET", path: path))
    }

    private func post(_ body: String, requestID: String) throws -> Reply {
        Reply(try HTTPClient(port: port, timeout: .seconds(30)).send(
            method: "POST", path: "/v1/events",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(writeKey)", "X-Request-Id": requestID],
            body: Array(body.utf8)))
    }

    private func nextRequestID() -> String {
        requests += 1
        return "fault-\(requests)"
    }

    /// `ALTER DATABASE <this one> <change>`: what new sessions get.
    func alterDatabase(_ change: String) throws {
        let admin = try self.admin
        let name: String = try admin.query("SELECT current_database()")[0].decode(at: 0)
        try admin.execute(unsafeSQL: "ALTER DATABASE \"\(name)\" \(change)")
    }

    /// Ends the daemon's sessions (its pools reconnect on their next use) and waits until they are gone.
    func endDaemonSessions() throws {
        let admin = try self.admin
        for _ in 0..<100 {
            let left = try admin.query("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE application_name IN ('menurank-serve', 'menurank-ingest') AND pid <> pg_backend_pid()
                """)[0].decode(Int.self, at: 0)
            if left == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the daemon's sessions did not end")
    }

    /// Sends new batches (kept for a retry when they get a 503) until one of `count` events is
    /// acknowledged.
    func sendUntilAcknowledged(_ count: Int) throws {
        for _ in 0..<100 {
            let body = Payload.batch(Payload.events(count))
            sentEvents += count
            let reply = try post(body, requestID: nextRequestID())
            if reply.status == 200 {
                #expect(reply.accepted == count, "\(reply.text)")
                acknowledged += reply.accepted
                return
            }
            pending.append((body, count))
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("no batch was acknowledged")
    }

    /// Sends new batches until one fails for `reason` (the first may still meet a connection the
    /// test ended, which is `unreachable`), checking every answer on the way: 503 with
    /// `Retry-After`, the API's error, no server text, and one log line with the request id, the
    /// reason and (when given) the SQLSTATE. Every failed batch is kept for a retry.
    func writesFail(because reason: String, sqlState: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for _ in 0..<100 {
            let body = Payload.batch(Payload.events(5))
            sentEvents += 5
            let requestID = nextRequestID()
            let reply = try post(body, requestID: requestID)
            if reply.status == 200 {
                // Committed before the fault took hold (an open session that is not ended yet).
                acknowledged += reply.accepted
                continue
            }
            pending.append((body, 5))
            #expect(reply.status == 503, "\(reply.status) \(reply.text)", sourceLocation: sourceLocation)
            #expect(Int(reply.headers["Retry-After"] ?? "") ?? 0 >= 1, "\(reply.headers)", sourceLocation: sourceLocation)
            #expect(reply.error == "database_unavailable", "\(reply.text)", sourceLocation: sourceLocation)
            for leak in ["SQL", "COPY", "INSERT", "FATAL", "SQLSTATE", "connection to server"] {
                #expect(!reply.text.contains(leak), "server text in the answer: \(reply.text)", sourceLocation: sourceLocation)
            }
            let logged = logLines.all.filter {
                $0.contains("request failed") && $0.split(separator: " ").contains("request_id=\(requestID)")
            }
            #expect(logged.count == 1, "\(logged)", sourceLocation: sourceLocation)
            guard let line = logged.first else { continue }
            #expect(line.contains("level=warning") && line.contains("status=503") && line.contains("route=/v1/events"),
                    "\(line)", sourceLocation: sourceLocation)
            if line.contains("[\(reason)]") {
                if let sqlState { #expect(line.contains(sqlState), "\(line)", sourceLocation: sourceLocation) }
                return
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("no write failed for \(reason): \(logLines.all.suffix(5))", sourceLocation: sourceLocation)
    }

    /// Polls `/readyz` until it names `reason`; it must answer 503 with `Retry-After` throughout.
    func expectNotReady(reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var last = ""
        for _ in 0..<100 {
            let reply = try get("/readyz")
            #expect(reply.status == 503, "\(reply.text)", sourceLocation: sourceLocation)
            #expect(Int(reply.headers["Retry-After"] ?? "") ?? 0 >= 1, sourceLocation: sourceLocation)
            if reply.json["reason"] as? String == reason {
                #expect(reply.json["status"] as? String == "unavailable", sourceLocation: sourceLocation)
                #expect(reply.error == "database_unavailable", sourceLocation: sourceLocation)
                return
            }
            last = reply.text
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("/readyz never said \(reason); last: \(last)", sourceLocation: sourceLocation)
    }

    func expectReady(sourceLocation: SourceLocation = #_sourceLocation) throws {
        var last = ""
        for _ in 0..<100 {
            let reply = try get("/readyz")
            if reply.status == 200 { return }
            last = reply.text
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("/readyz never ready again; last: \(last)", sourceLocation: sourceLocation)
    }

    /// Sends every batch that got a 503 again, as a client does, until each is acknowledged.
    func retryPending(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(120)
        while !pending.isEmpty, Date() < deadline {
            let (body, count) = pending[0]
            let reply = try post(body, requestID: nextRequestID())
            if reply.status == 200 {
                // A batch whose reply was lost may have been stored: its events come back as duplicates.
                #expect(reply.accepted + reply.duplicates == count, "\(reply.text)", sourceLocation: sourceLocation)
                acknowledged += reply.accepted
                pending.removeFirst()
            } else {
                #expect(reply.status == 503 && reply.headers["Retry-After"] != nil, "\(reply.text)",
                        sourceLocation: sourceLocation)
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        #expect(pending.isEmpty, "\(pending.count) batches still refused", sourceLocation: sourceLocation)
    }

    /// Every event sent is stored, once, and was acknowledged as accepted exactly once.
    func expectEveryEventStoredOnce(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let row = try PostgresConnection(url).query("SELECT count(*), count(DISTINCT event_id) FROM events")[0]
        let stored = try row.decode(Int.self, at: 0)
        #expect(stored == sentEvents, sourceLocation: sourceLocation)
        #expect(try row.decode(Int.self, at: 1) == stored, sourceLocation: sourceLocation)
        #expect(acknowledged == sentEvents, sourceLocation: sourceLocation)
    }
}
