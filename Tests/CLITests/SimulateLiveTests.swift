import Foundation
import Postgres
import Testing
import TestSupport

/// `menurank simulate` against the real daemon on a free port and a schema of its own: every
/// accepted event is stored, and sending the same events again stores nothing twice.
@Suite("simulate against menurank serve", TestDatabase.enabled)
struct SimulateLiveTests {
    @Test func everyAcceptedEventIsStoredOnce() throws {
        try withDaemon(prefix: "simulate", app: "simulated") { schema, writeKey, port in
            // A fixed clock (and seed) makes the same events, ids included, on every run.
            let formatter = ISO8601DateFormatter()
            let now = formatter.string(from: Date())
            let arguments = ["simulate", "--now", now, "--url", "http://127.0.0.1:\(port)", "--key", writeKey,
                             "--events", "5000", "--batch-size", "250", "--concurrency", "4", "--seed", "11",
                             "--format", "json"]
            let first = try summary(CLIRunner().run(arguments))
            #expect(first["accepted"] as? Int == 5000)
            #expect(first["rejected"] as? Int == 0)
            #expect(first["batches_failed"] as? Int == 0)
            let connection = try schema.connect()
            let stored = try #require(connection.query("SELECT count(*) FROM events").first).decode(Int.self, at: 0)
            #expect(stored == first["accepted"] as? Int)

            // A replay of the same events is all duplicates and stores nothing.
            let replay = try summary(CLIRunner().run(arguments))
            #expect(replay["accepted"] as? Int == 0)
            #expect(replay["duplicates"] as? Int == 5000)
            let storedAfterReplay = try #require(connection.query("SELECT count(*) FROM events").first).decode(Int.self, at: 0)
            #expect(storedAfterReplay == stored)

            // The same events made before the clock starts and sent through the library
            // (--pregenerate --library, the benchmark's library phase): all duplicates too.
            let prepared = try summary(CLIRunner().run(arguments + ["--pregenerate", "--library"]))
            #expect(prepared["accepted"] as? Int == 0)
            #expect(prepared["duplicates"] as? Int == 5000)

            // --live: the library stamps each event's id and time as it records it, as an app's
            // would, so the same generated events are new ones, all timed after the fixed clock.
            let live = try summary(CLIRunner().run(arguments + ["--live"]))
            #expect(live["accepted"] as? Int == 5000)
            #expect(live["duplicates"] as? Int == 0)
            let liveRows = try #require(connection.query(
                "SELECT count(*), count(DISTINCT event_id) FROM events WHERE time > \(now)::timestamptz").first)
            #expect(try liveRows.decode(Int.self, at: 0) == 5000)
            #expect(try liveRows.decode(Int.self, at: 1) == 5000)
            // --raw: the raw sender encoding as it goes (the soak's load). The generated events
            // again are all duplicates; with --live each batch is stamped as sent: all new.
            let raw = try summary(CLIRunner().run(arguments + ["--raw"]))
            #expect(raw["accepted"] as? Int == 0)
            #expect(raw["duplicates"] as? Int == 5000)
            let rawLive = try summary(CLIRunner().run(arguments + ["--raw", "--live"]))
            #expect(rawLive["accepted"] as? Int == 5000)
            #expect(rawLive["duplicates"] as? Int == 0)
            let allLive = try #require(connection.query(
                "SELECT count(*), count(DISTINCT event_id) FROM events WHERE time > \(now)::timestamptz").first)
            #expect(try allLive.decode(Int.self, at: 0) == 10000)
            #expect(try allLive.decode(Int.self, at: 1) == 10000)
            let rawMisuse = try CLIRunner().run(arguments + ["--raw", "--pregenerate"])
            #expect(rawMisuse.status == 64, "--raw --pregenerate: \(rawMisuse.status) \(rawMisuse.error)")
            let misuse = try CLIRunner().run(arguments + ["--live", "--pregenerate"])
            #expect(misuse.status == 64, "--live --pregenerate: \(misuse.status) \(misuse.error)")
        }
    }

    /// `--layout`: the events of an element type shown another layout carry that layout's
    /// `menu_version` into the database, whichever way simulate sends them (through the library by
    /// default and with --pregenerate --library, raw with --raw and --pregenerate); the other
    /// element types keep the manifest's version. (`menurank outcomes` compares menu versions: the
    /// demo's outcome step measures nothing without it.)
    @Test func eventsOfAShownLayoutCarryItsMenuVersion() throws {
        try withDaemon(prefix: "simulate_layout", app: "mail") { schema, writeKey, port in
            let layout = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString).json")
            try Foundation.Data(#"""
                {"app": "mail", "version": "2026.11.1", "menus": {"mail.message": {"menu_version": "2026.11.1+2",
                 "groups": [["reply", "forward", "reply_all"], ["archive", "move", "flag"], ["delete"]]}}}
                """#.utf8).write(to: layout)
            defer { try? FileManager.default.removeItem(at: layout) }
            let manifest = try RepositoryPaths.root().appendingPathComponent("examples/mail.json").path
            let connection = try schema.connect()
            for (seed, sender) in [(1, [String]()), (2, ["--pregenerate", "--library"]), (3, ["--raw"]), (4, ["--pregenerate"])] {
                let run = try summary(CLIRunner().run(
                    ["simulate", "--url", "http://127.0.0.1:\(port)", "--key", writeKey, "--manifest", manifest,
                     "--layout", layout.path, "--events", "2000", "--batch-size", "250", "--concurrency", "2",
                     "--seed", "\(seed)", "--format", "json"] + sender))
                #expect(run["accepted"] as? Int == 2000, "\(sender)")
                // Each run's events by element type and the menu version their context carries.
                let rows = try connection.query("""
                    SELECT t.name, COALESCE(c.menu_version, '(none)'), count(*)
                    FROM events e JOIN element_types t USING (app_id, element_type_id)
                    LEFT JOIN contexts c USING (app_id, context_id)
                    GROUP BY 1, 2 ORDER BY 1, 2
                    """).map { (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1), try $0.decode(Int.self, at: 2)) }
                let versions = Dictionary(grouping: rows, by: { $0.0 }).mapValues { Set($0.map(\.1)) }
                #expect(versions["mail.message"] == ["2026.11.1+2"], "\(sender): \(rows)")
                #expect(versions.filter { $0.key != "mail.message" }.values.allSatisfy { $0 == ["2026.11.1"] },
                        "\(sender): \(rows)")
                #expect(rows.map(\.2).reduce(0, +) == 2000 * seed, "\(sender): \(rows)")
            }
        }
    }

    /// A schema of its own, migrated, with the app `app`, and `menurank serve` over it on a free
    /// port: `body` gets the schema, the app's write key and the port; then the daemon must exit 0
    /// on SIGTERM.
    func withDaemon(prefix: String, app: String,
                    _ body: (TestSchema, _ writeKey: String, _ port: UInt16) throws -> Void) throws {
        try withDaemon(prefix: prefix, app: app) { schema, keys, port in try body(schema, keys.write, port) }
    }

    /// `withDaemon`, with both of the app's keys.
    func withDaemon(prefix: String, app: String,
                    _ body: (TestSchema, _ keys: (write: String, read: String), _ port: UInt16) throws -> Void) throws {
        try TestDatabase.withSchema(prefix: prefix) { schema in
            let database = schema.connectionString
            let migrate = try CLIRunner().run(["migrate", "--database", database])
            try #require(migrate.status == 0, "migrate: \(migrate.error)")
            let created = try CLIRunner().run(["apps", "create", app, "--format", "json", "--database", database])
            try #require(created.status == 0, "apps create: \(created.error)")
            let keys = try #require(JSONSerialization.jsonObject(with: Foundation.Data(created.output.utf8)) as? [String: Any])
            let writeKey = try #require(keys["write_key"] as? String)
            let readKey = try #require(keys["read_key"] as? String)
            let daemon = try ChildProcess(try RepositoryPaths.menurankBinary(),
                                          ["serve", "--listen", "127.0.0.1:0", "--database", database])
            let stopTimeout: TimeInterval = TestDatabase.distributed ? 180 : 30
            defer { daemon.stop(timeout: stopTimeout) }
            let port = try #require(daemon.listeningPort(timeout: stopTimeout),
                                    "menurank serve did not log its port: \(daemon.standardError)")
            try body(schema, (writeKey, readKey), port)
            #expect(daemon.stop(timeout: stopTimeout) == 0, "the daemon exits 0 on SIGTERM: \(daemon.standardError.suffix(2000))")
        }
    }

    func summary(_ run: CLIRunner.Outcome) throws -> [String: Any] {
        #expect(run.status == 0, "simulate exited \(run.status): \(run.error)")
        return try #require(JSONSerialization.jsonObject(with: Foundation.Data(run.output.utf8)) as? [String: Any],
                            "simulate printed: \(run.output)")
    }
}
