import Foundation
import HTTP
import Postgres
import Storage
import TestSupport
import Testing

/// The built `menurank` binary: `serve` under SIGTERM, `import`, `apps`.
@Suite(TestDatabase.enabled) struct BinaryTests {
    @Test func sigtermUnderLoadCommitsEverythingAcknowledgedAndExitsZero() throws {
        try TestDatabase.withSchema(prefix: "sigterm") { schema in
            try Migrations.apply(on: schema.connect())
            let pool = schema.makePool(maxConnections: 1)
            let app = try AppStore(pool: pool).create(name: "alpha")
            pool.close()

            let daemon = try ChildProcess(try RepositoryPaths.menurankBinary(), ["serve", "--listen", "127.0.0.1:0"],
                                          environment: ["DATABASE_URL": schema.connectionString])
            let port = try #require(daemon.listeningPort(timeout: TestDatabase.distributed ? 180 : 20), "no listening line: \(daemon.standardError)")
            let totals = Totals()
            let stop = StopFlag()
            let group = DispatchGroup()
            for _ in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    let client = HTTPClient(port: port, timeout: .seconds(30))
                    while !stop.isSet {
                        let body = Array(Payload.batch(Payload.events(50)).utf8)
                        let response: HTTPClientResponse
                        do {
                            response = try client.send(
                                method: "POST", path: "/v1/events",
                                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(app.writeKey)"],
                                body: body)
                        } catch {
                            totals.note("\(error)")
                            break
                        }
                        let reply = Reply(response)
                        totals.add(status: reply.status, accepted: reply.accepted, duplicates: reply.duplicates)
                        if reply.status != 200 { break }
                    }
                }
            }
            Thread.sleep(forTimeInterval: 1.5)
            daemon.signal(SIGTERM)
            let status = daemon.wait(timeout: 30)
            stop.set()
            group.wait()
            #expect(status == 0, "exit status \(String(describing: status)); stderr: \(daemon.standardError.suffix(2000))")
            let result = totals.snapshot
            #expect(result.accepted > 0, "statuses \(result.statuses), errors \(totals.notes), port \(port); stderr: \(daemon.standardError.prefix(3000))")
            let stored = try schema.connect().query("SELECT count(*) FROM events")[0].decode(Int.self, at: 0)
            // Every acknowledged event is stored (a request cut off by the shutdown may be stored unacknowledged).
            #expect(stored >= result.accepted)
            #expect(daemon.standardError.contains("msg=\"shutting down\"") || daemon.standardError.contains("msg=shutting"))
        }
    }

    @Test func importReportsBadLinesAndNeverStoresTwice() throws {
        try TestDatabase.withSchema(prefix: "import") { schema in
            try Migrations.apply(on: schema.connect())
            let environment = ["DATABASE_URL": schema.connectionString]
            let create = try ChildProcess.menurank(["apps", "create", "alpha", "--format", "json"], environment: environment)
            #expect(create.status == 0, "\(create.standardError)")
            let keys = try JSONSerialization.jsonObject(with: Data(create.standardOutput.utf8)) as? [String: String]
            #expect(keys?["app"] == "alpha" && keys?["write_key"]?.hasPrefix("mrk_w_") == true
                    && keys?["read_key"]?.hasPrefix("mrk_r_") == true)

            let lines = [
                Payload.event(extra: #""user":"u1","app_version":"1.0""#),
                Payload.event(command: "forward"),
                "{\"id\": ",
                Payload.event(command: nil),
                "",
                Payload.event(elementType: "files.folder", command: "open"),
                Payload.event(time: Payload.now(offsetSeconds: -200 * 86_400)),
                "[1, 2]",
            ]
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }

            let first = try ChildProcess.menurank(["import", file.path, "--app", "alpha"], environment: environment)
            #expect(first.status == 2, "\(first.standardError)")
            for line in [3, 4, 7, 8] { #expect(first.standardError.contains("line \(line): "), "\(first.standardError)") }
            #expect(first.standardError.contains("line 4: missing_field"))
            #expect(first.standardError.contains("line 7: time_too_old"))
            #expect(!first.standardError.contains("line 1:") && !first.standardError.contains("line 5:"))
            #expect(first.standardOutput.contains("8 lines: 3 events stored, 0 duplicates, 4 rejected"), "\(first.standardOutput)")

            let second = try ChildProcess.menurank(["import", file.path, "--app", "alpha"], environment: environment)
            #expect(second.status == 2)
            #expect(second.standardOutput.contains("3 events stored") == false)
            #expect(second.standardOutput.contains("0 events stored, 3 duplicates"), "\(second.standardOutput)")
            #expect(try schema.connect().query("SELECT count(*) FROM events")[0].decode(Int.self, at: 0) == 3)

            // Only good lines, from standard input: exit 0.
            let good = [Payload.event(), Payload.event()].joined(separator: "\n")
            let piped = try ChildProcess.menurank(["import", "-", "--app", "alpha"], environment: environment, input: good)
            #expect(piped.status == 0, "\(piped.standardError)")
            #expect(piped.standardOutput.contains("2 lines: 2 events stored"))
            // An unknown app fails with 1.
            #expect(try ChildProcess.menurank(["import", "-", "--app", "nope"], environment: environment, input: good).status == 1)
        }
    }

    @Test func migrateAppliesOnceAndReportsStatus() throws {
        try TestDatabase.withSchema(prefix: "migrate") { schema in
            let environment = ["DATABASE_URL": schema.connectionString]
            let before = try ChildProcess.menurank(["migrate", "--status"], environment: environment)
            #expect(before.status == 0 && before.standardOutput.contains("pending  0001"), "\(before.standardError)")
            let first = try ChildProcess.menurank(["migrate"], environment: environment)
            #expect(first.status == 0 && first.standardOutput.contains("applied 0001"), "\(first.standardError)")
            let second = try ChildProcess.menurank(["migrate"], environment: environment)
            #expect(second.status == 0 && second.standardOutput.contains("up to date"))
            let after = try ChildProcess.menurank(["migrate", "--status"], environment: environment)
            #expect(after.standardOutput.contains("0 pending"))
            #expect(try schema.connect().query("SELECT to_regclass('events') IS NOT NULL")[0].decode(Bool.self, at: 0))
        }
    }

    @Test func appsCommandsListRotateAndRevoke() throws {
        try TestDatabase.withSchema(prefix: "appscli") { schema in
            try Migrations.apply(on: schema.connect())
            let environment = ["DATABASE_URL": schema.connectionString]
            #expect(try ChildProcess.menurank(["apps", "create", "mail"], environment: environment).status == 0)
            #expect(try ChildProcess.menurank(["apps", "create", "mail"], environment: environment).status == 1)
            #expect(try ChildProcess.menurank(["apps", "create", "bad name"], environment: environment).status == 64)
            let rotated = try ChildProcess.menurank(["apps", "rotate-key", "mail", "--kind", "read"], environment: environment)
            #expect(rotated.status == 0 && rotated.standardOutput.contains("read key: mrk_r_"))
            #expect(rotated.standardOutput.contains("revoked mrk_r_"))
            let list = try ChildProcess.menurank(["apps", "list", "--format", "json"], environment: environment)
            let apps = try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]]
            let keys = apps?.first?["keys"] as? [[String: Any]] ?? []
            #expect(keys.count == 3)
            let write = try #require(keys.first { $0["kind"] as? String == "write" }?["prefix"] as? String)
            let revoke = try ChildProcess.menurank(["apps", "revoke-key", write], environment: environment)
            #expect(revoke.status == 0 && revoke.standardOutput.contains("revoked write key \(write) of mail"))
            #expect(try ChildProcess.menurank(["apps", "revoke-key", "mrk_w_nothere"], environment: environment).status == 1)
            #expect(try ChildProcess.menurank(["apps", "rotate-key", "mail"], environment: environment).status == 64)
        }
    }
}

/// A flag threads poll to stop.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
