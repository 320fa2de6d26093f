import Foundation
import HTTP
import Ingest
import Observability
import Postgres
import Storage
import TestSupport
import Testing

/// PostgreSQL stopped under the daemon and started again, on a scratch cluster of its own (so the
/// other suites, which share the test database, are not disturbed).
@Suite(.enabled(if: TestDatabase.shouldRun && ScratchServer.isPossible, "needs PostgreSQL's server binaries for a scratch cluster"))
struct OutageTests {
    @Test func answers503WhileDownAndRecoversWithoutLosingAcknowledgedEvents() throws {
        try ScratchServer.with { scratch in
            try Migrations.apply(on: PostgresConnection(scratch.url))
            let pool = PostgresPool(configuration: .init(conninfo: scratch.url, maxConnections: 1))
            let app = try AppStore(pool: pool).create(name: "alpha")
            pool.close()

            var configuration = IngestConfiguration()
            configuration.port = 0
            configuration.database = scratch.url
            // The key stays cached through the outage, so the writer's path is what answers.
            configuration.keyCacheTTL = .seconds(600)
            let server = IngestServer(configuration: configuration,
                                      logger: Logger(label: "outage", level: .error, output: LogOutput(format: .logfmt) { _ in }))
            let port = try server.start()
            defer { server.shutdown() }
            let client = HTTPClient(port: port, timeout: .seconds(30))
            func post(_ body: String) throws -> Reply {
                Reply(try client.send(method: "POST", path: "/v1/events",
                                      headers: ["Content-Type": "application/json", "Authorization": "Bearer \(app.writeKey)"],
                                      body: Array(body.utf8)))
            }
            var acknowledged = 0
            for _ in 0..<3 {
                let reply = try post(Payload.batch(Payload.events(20)))
                #expect(reply.status == 200)
                acknowledged += max(0, reply.accepted)
            }

            try scratch.stop()
            let failing = Payload.batch(Payload.events(20))
            let down = try post(failing)
            #expect(down.status == 503, "\(down.text)")
            #expect(down.error == "database_unavailable")
            #expect(Int(down.headers["Retry-After"] ?? "") ?? 0 >= 1)
            #expect(Reply(try HTTPClient(port: port).send(method: "GET", path: "/readyz")).status == 503)
            #expect(Reply(try HTTPClient(port: port).send(method: "GET", path: "/healthz")).status == 200)

            try scratch.start()
            #expect(try PostgresConnection(scratch.url).query("SELECT 1").count == 1)
            // The client retries the batch that got a 503 until it is accepted.
            var recovered: Reply?
            var last = ""
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let reply = try post(failing)
                if reply.status == 200 {
                    recovered = reply
                    break
                }
                last = "\(reply.status) \(reply.text)"
                Thread.sleep(forTimeInterval: 0.2)
            }
            let reply = try #require(recovered, "still failing: \(last)")
            #expect(reply.accepted + reply.duplicates == 20)
            acknowledged += reply.accepted
            let after = try post(Payload.batch(Payload.events(20)))
            #expect(after.status == 200)
            if after.status == 200 { acknowledged += after.accepted }

            let stored = try PostgresConnection(scratch.url).query("SELECT count(*) FROM events")[0].decode(Int.self, at: 0)
            #expect(stored == acknowledged)
            #expect(acknowledged == 100)
        }
    }
}
