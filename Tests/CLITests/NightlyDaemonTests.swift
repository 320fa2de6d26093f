import Foundation
import Postgres
import Testing
import TestSupport

/// The night inside the daemon (`serve --nightly-at`), with real daemons on a private PostgreSQL:
/// several daemons run a night once, a failing night is logged and retried, and SIGTERM during a
/// night leaves no proposal filed by halves. One test at a time: the night's lock and the rollup's
/// are advisory locks of the database, which every test schema shares.
@Suite(TestDatabase.enabled, .serialized) struct NightlyDaemonTests {
    /// Today (UTC): the daemon's night ranks the 28 days up to it, as `recommend --all` does.
    static var today: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    /// A schema with the app `mail`, DESIGN.md's manifest and its 28 days of selections up to today.
    static func prepared(_ schema: TestSchema) throws -> (PostgresConnection, Int32) {
        let connection = try schema.connect()
        try CLIRunner.migrate(schema)
        let cli = CLIRunner(database: schema.connectionString)
        #expect(try cli.run(["apps", "create", "mail"]).status == 0)
        let app: Int32 = try connection.query("SELECT app_id FROM apps WHERE name = 'mail'")[0].decode(at: 0)
        #expect(try cli.run(["menus", "import", try CLIRunner.temporaryFile(RecommendCommandTests.manifest)]).status == 0)
        try RecommendCommandTests.insertEvents(RecommendCommandTests.counts, app: app, asOf: today, on: connection)
        return (connection, app)
    }

    /// A daemon whose night is due at once (00:00 UTC has passed today), looking every 100 ms.
    static func daemon(_ schema: TestSchema) throws -> ChildProcess {
        try ChildProcess(try RepositoryPaths.menurankBinary(),
                         ["serve", "--listen", "127.0.0.1:0", "--nightly-at", "00:00"],
                         environment: ["DATABASE_URL": schema.connectionString, "MENURANK_TEST_NIGHTLY_TICK_MS": "100"])
    }

    /// Polls `condition` every 100 ms for up to `seconds`.
    static func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    static func count(_ text: String, _ piece: String) -> Int { text.components(separatedBy: piece).count - 1 }

    static func night(on connection: PostgresConnection) throws -> (outcome: String, attempts: Int32, filed: Int32?)? {
        try connection.query("SELECT outcome, attempts, filed FROM nightly_runs").first.map {
            (try $0.decode(String.self, at: 0), try $0.decode(Int32.self, at: 1), try $0.decode(Int32?.self, at: 2))
        }
    }

    @Test func twoDaemonsOnOneDatabaseRunTheNightOnce() throws {
        try TestDatabase.withSchema(prefix: "nightlytwo") { schema in
            let (connection, _) = try Self.prepared(schema)
            let daemons = [try Self.daemon(schema), try Self.daemon(schema)]
            let ports = daemons.map { $0.listeningPort(timeout: 60) }
            #expect(try Self.eventually(120) { try Self.night(on: connection)?.outcome == "succeeded" },
                    "stderr: \(daemons.map { $0.standardError.suffix(3000) })")
            // Both keep looking for a while: neither runs the night again.
            Thread.sleep(forTimeInterval: 1.5)
            let night = try #require(try Self.night(on: connection))
            #expect(night.attempts == 1 && night.filed == 1)
            #expect(try connection.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 1)
            let logs = daemons.map(\.standardError)
            #expect(logs.map { Self.count($0, "msg=\"night done\"") }.sorted() == [0, 1], "\(logs)")
            #expect(logs.allSatisfy { $0.contains("msg=\"nightly job scheduled\"") })
            // The daemon that ran it says so on /metrics.
            let ran = try #require(logs.firstIndex { $0.contains("msg=\"night done\"") })
            let port = try #require(ports[ran])
            let metrics = try HTTPClient(port: port).send(method: "GET", path: "/metrics").text
            #expect(metrics.contains("menurank_nightly_last_success 1"), "\(metrics)")
            #expect(metrics.contains("menurank_nightly_runs_total{outcome=\"succeeded\"} 1"), "\(metrics)")
            #expect(metrics.contains("menurank_nightly_last_filed 1"), "\(metrics)")
            for daemon in daemons {
                daemon.signal(SIGTERM)
                #expect(daemon.wait(timeout: 30) == 0)
            }
        }
    }

    @Test func aFailingNightIsLoggedAndRetriedAtTheNextTick() throws {
        try TestDatabase.withSchema(prefix: "nightlyfail") { schema in
            let (connection, app) = try Self.prepared(schema)
            // A stored manifest that no longer loads fails the night.
            let body: String = try connection.query("SELECT body::text FROM manifests WHERE app_id = \(app)")[0].decode(at: 0)
            try connection.execute("UPDATE manifests SET body = '{\"app\": 1}'::jsonb WHERE app_id = \(app)")
            let daemon = try Self.daemon(schema)
            #expect(try Self.eventually(120) { Self.count(daemon.standardError, "msg=\"night failed\"") >= 2 },
                    "stderr: \(daemon.standardError.suffix(3000))")
            #expect(daemon.standardError.contains("no longer loads"))
            #expect(daemon.standardError.contains("retry=\"next tick\"") || daemon.standardError.contains("retry=next"))
            #expect(try Self.night(on: connection)?.outcome == "failed")
            #expect(try connection.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 0)
            // Mended, the next tick's night succeeds and files.
            try connection.execute("UPDATE manifests SET body = \(body)::jsonb WHERE app_id = \(app)")
            #expect(try Self.eventually(120) { try Self.night(on: connection)?.outcome == "succeeded" },
                    "stderr: \(daemon.standardError.suffix(3000))")
            #expect(try connection.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 1)
            #expect((try Self.night(on: connection)?.attempts ?? 0) >= 3)
            daemon.signal(SIGTERM)
            #expect(daemon.wait(timeout: 30) == 0)
        }
    }

    /// The night is held in its rollup (the test holds the app's rollup lock) when SIGTERM comes: it
    /// goes on once the lock is free, is asked to stop before filing, files nothing, and the daemon
    /// exits 0; the next daemon runs the night again and files it whole.
    @Test func sigtermDuringTheNightFilesNothingByHalves() throws {
        try TestDatabase.withSchema(prefix: "nightlyterm") { schema in
            let (connection, app) = try Self.prepared(schema)
            let holder = try schema.connect()
            _ = try holder.query("SELECT pg_advisory_lock(\(Int32(0x6D72_6F6C)), \(app))")
            let daemon = try Self.daemon(schema)
            #expect(try Self.eventually(120) { daemon.standardError.contains("msg=\"night started\"") },
                    "stderr: \(daemon.standardError.suffix(3000))")
            daemon.signal(SIGTERM)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(daemon.isRunning)   // waiting for the night, which waits for the lock
            _ = try holder.query("SELECT pg_advisory_unlock(\(Int32(0x6D72_6F6C)), \(app))")
            #expect(daemon.wait(timeout: 60) == 0, "stderr: \(daemon.standardError.suffix(3000))")
            #expect(daemon.standardError.contains("msg=\"night stopped\""), "stderr: \(daemon.standardError.suffix(3000))")
            #expect(try Self.night(on: connection)?.outcome == "stopped")
            #expect(try connection.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 0)

            let next = try Self.daemon(schema)
            #expect(try Self.eventually(120) { try Self.night(on: connection)?.outcome == "succeeded" },
                    "stderr: \(next.standardError.suffix(3000))")
            #expect(try connection.query("SELECT count(*) FROM proposals WHERE status = 'pending'")[0].decode(Int.self, at: 0) == 1)
            next.signal(SIGTERM)
            #expect(next.wait(timeout: 30) == 0)
        }
    }
}
