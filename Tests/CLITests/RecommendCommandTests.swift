import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport

/// The nightly run and review with the real binary against a schema of its own: the DESIGN.md
/// example end to end, idempotence, supersede, accept, export and `GET /v1/menus`.
@Suite(TestDatabase.enabled) struct RecommendCommandTests {
    static let manifest = DesignExample.manifest()

    static let asOf = "2026-11-20"

    /// The 28-day selections of DESIGN.md's example, spread over the window, users 0..799 (800 people:
    /// print is picked by 20 of them, a reach whose upper bound is below 5%).
    static let counts = DesignExample.selections

    /// The selections `counts` of mail.message spread over the 28 days ending `asOf`, queued for
    /// the rollup.
    static func insertEvents(_ counts: [(String, Int)], app: Int32, asOf: String = asOf, on connection: PostgresConnection)
        throws
    {
        try TestDatabase.ensureEventPartitions(through: asOf, days: 28, on: connection)
        try connection.withTransaction { connection in
            try connection.execute("""
                INSERT INTO element_types (app_id, name) VALUES (\(app), 'mail.message') ON CONFLICT DO NOTHING
                """)
            for (command, count) in counts {
                try connection.execute("""
                    INSERT INTO commands (app_id, name) VALUES (\(app), \(command)) ON CONFLICT DO NOTHING
                    """)
                try connection.execute("""
                    INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id)
                    SELECT \(app), \(asOf)::date - (g % 28)::int4, \(asOf)::date - (g % 28)::int4 + interval '9 hours', g % 800,
                           gen_random_uuid(), e.element_type_id, c.command_id
                    FROM generate_series(1, \(count)) g,
                         element_types e, commands c
                    WHERE e.app_id = \(app) AND e.name = 'mail.message' AND c.app_id = \(app) AND c.name = \(command)
                    """)
            }
            try connection.execute("""
                INSERT INTO rollup_queue (app_id, day)
                SELECT \(app), \(asOf)::date - d FROM generate_series(0, 27) d(d)
                """)
        }
    }

    static func json(_ text: String) throws -> [String: Any] {
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func entry(_ document: [String: Any]) throws -> [String: Any] {
        let types = try #require(document["element_types"] as? [[String: Any]])
        return try #require(types.first { $0["element_type"] as? String == "mail.message" })
    }

    static func groups(_ layout: Any?) throws -> [[String]] {
        let object = try #require(layout as? [String: Any])
        let groups = try #require(object["groups"] as? [[Any]])
        return groups.map { $0.map { ($0 as? String) ?? "{submenu}" } }
    }

    /// The ladder reaches review: a reviewer accepts a larger (or smaller) step than the one filed,
    /// and that step's layout is served (issue 27).
    @Test func aReviewerAcceptsAnotherStepOfTheLadder() throws {
        try TestDatabase.withSchema(prefix: "clistep") { schema in
            let conn = try schema.connect()
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            #expect(try cli.run(["apps", "create", "mail"]).status == 0)
            let app: Int32 = try conn.query("SELECT app_id FROM apps WHERE name = 'mail'")[0].decode(at: 0)
            #expect(try cli.run(["menus", "import", try CLIRunner.temporaryFile(Self.manifest)]).status == 0)
            try Self.insertEvents(Self.counts, app: app, on: conn)
            let run = try cli.run(["recommend", "--app", "mail", "--as-of", Self.asOf, "--format", "json"])
            #expect(run.status == 0, "\(run.error)")
            let entry = try Self.entry(try Self.json(run.output))
            #expect(entry["step"] as? String == "regroup")
            let id = String(try #require(entry["proposal_id"] as? Int))
            let ladder = try #require(entry["ladder"] as? [[String: Any]])
            let promote = try #require(ladder.first { $0["step"] as? String == "promote" })
            #expect(promote["offered"] as? Bool == true)
            let wanted = try Self.groups(["groups": promote["groups"] as Any])

            #expect(try cli.run(["proposals", "accept", id, "--step", "sideways"]).status == 64)
            #expect(try cli.run(["proposals", "accept", id, "--step", "promote", "--keep-pruned", "X"]).status == 64)
            let preview = try cli.run(["proposals", "accept", id, "--step", "promote", "--dry-run"])
            #expect(preview.status == 0, "\(preview.error)")
            let accepted = try cli.run(["proposals", "accept", id, "--step", "promote", "--by", "test"])
            #expect(accepted.status == 0, "\(accepted.error)")
            let exported = try cli.run(["menus", "export", "--app", "mail"])
            #expect(exported.status == 0, "\(exported.error)")
            let menus = try #require(
                (try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any])?["menus"] as? [String: Any],
                "\(exported.output)")
            #expect(try Self.groups(menus["mail.message"]) == wanted)
            #expect(wanted != [["reply", "forward", "reply_all"], ["archive", "move", "flag"], ["copy_link", "delete"]])
        }
    }

    @Test func nightlyRunReviewAndServing() throws {
        try TestDatabase.withSchema(prefix: "clireco") { schema in
            let conn = try schema.connect()
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)

            let created = try cli.run(["apps", "create", "mail", "--format", "json"])
            #expect(created.status == 0, "\(created.error)")
            let readKey = try #require(try Self.json(created.output)["read_key"] as? String)
            let app: Int32 = try conn.query("SELECT app_id FROM apps WHERE name = 'mail'")[0].decode(at: 0)

            let file = try CLIRunner.temporaryFile(Self.manifest)
            let imported = try cli.run(["menus", "import", file])
            #expect(imported.status == 0, "\(imported.error)")
            #expect(imported.output.contains("mail.message: added, version 1"))
            #expect(imported.error.contains("HIG-6"))
            #expect(try cli.run(["menus", "import", file]).output.contains("mail.message: unchanged, version 1"))

            try Self.insertEvents(Self.counts, app: app, on: conn)
            let recommend = ["recommend", "--app", "mail", "--as-of", Self.asOf, "--format", "json"]
            let first = try cli.run(recommend)
            #expect(first.status == 0, "\(first.error)")
            let document = try Self.json(first.output)
            #expect(Set(document.keys) == ["app", "window", "element_types"])
            #expect(document["window"] as? [String: String] == ["from": "2026-10-24", "to": "2026-11-20"])
            let entry = try Self.entry(document)
            #expect(entry["changed"] as? Bool == true)
            #expect(entry["selections"] as? Int == 10_140)
            #expect(try Self.groups(entry["proposed"]) == [["reply", "forward", "reply_all"], ["archive", "move", "flag"],
                                                           ["copy_link", "delete"]])
            let prune = try #require(entry["prune"] as? [[String: Any]])
            #expect(prune.map { $0["command"] as? String } == ["print"])
            let lint = try #require(entry["lint"] as? [[String: Any]])
            #expect(lint.contains { $0["rule"] as? String == "HIG-6" })
            let firstID = try #require(entry["proposal_id"] as? Int)

            // Idempotent: the same run again files nothing and prints the same bytes.
            let second = try cli.run(recommend)
            #expect(second.status == 0)
            #expect(second.output == first.output)
            #expect(try cli.run(recommend + ["--dry-run"]).output == first.output)
            #expect(try conn.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 1)
            // The nightly job's form (every app with a manifest, on Citus too): the same proposal,
            // nothing filed again; an app without a manifest is left out.
            #expect(try cli.run(["apps", "create", "nomenus"]).status == 0)
            let all = try cli.run(["recommend", "--all", "--as-of", Self.asOf, "--format", "json"])
            #expect(all.status == 0, "\(all.error)")
            #expect(all.output.contains("\"mail\"") && !all.output.contains("nomenus"))
            #expect(try conn.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 1)

            // New evidence: copy_link now leads its group; the new proposal supersedes the old one.
            try Self.insertEvents([("copy_link", 3000)], app: app, on: conn)
            let third = try Self.entry(try Self.json(try cli.run(recommend).output))
            let secondID = try #require(third["proposal_id"] as? Int)
            #expect(secondID != firstID)
            let statuses = try conn.query("SELECT proposal_id, status FROM proposals ORDER BY proposal_id")
                .map { (try $0.decode(Int.self, at: 0), try $0.decode(String.self, at: 1)) }
            #expect(statuses.map(\.0) == [firstID, secondID])
            #expect(statuses.map(\.1) == ["superseded", "pending"])

            // Review.
            let listed = try cli.run(["proposals", "list", "--app", "mail", "--status", "pending", "--format", "json"])
            #expect(listed.status == 0)
            #expect(listed.output.contains("\"id\":\(secondID)"))
            #expect(try cli.run(["proposals", "show", "999999"]).status == 1)
            #expect(try cli.run(["proposals", "accept", "999999"]).status == 1)
            let refused = try cli.run(["proposals", "accept", String(firstID)])
            #expect(refused.status == 1)
            #expect(refused.error.contains("superseded; only a pending proposal can be accepted"))
            let diff = try cli.run(["proposals", "diff", String(secondID)])
            #expect(diff.status == 0)
            #expect(diff.output.contains("Flagged for pruning:") && diff.output.contains("Print"))
            #expect(diff.output.contains("Copy Link"))
            let markdown = try cli.run(["proposals", "diff", String(secondID), "--format", "markdown"])
            #expect(markdown.status == 0 && markdown.output.contains("| `Copy Link` |"))
            let shown = try cli.run(["proposals", "show", String(secondID), "--format", "json"])
            #expect(try Self.json(shown.output)["status"] as? String == "pending")

            let accepted = try cli.run(["proposals", "accept", String(secondID), "--note", "looks right"])
            #expect(accepted.status == 0, "\(accepted.error)")
            #expect(accepted.output.contains("is now layout version 2"))
            let proposed = try Self.groups(third["proposed"])

            // The accepted layout is current: export writes it, and nothing is proposed for it again.
            let exported = try cli.run(["menus", "export", "--app", "mail"])
            #expect(exported.status == 0)
            let exportedGroups = try #require(
                (try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any])
                    .flatMap { $0["menus"] as? [String: Any] }?["mail.message"])
            #expect(try Self.groups(exportedGroups) == proposed)
            let after = try Self.entry(try Self.json(try cli.run(recommend).output))
            #expect(after["changed"] as? Bool == false)
            #expect(after["proposal_id"] is NSNull)
            #expect(try conn.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 2)

            // Re-importing the old manifest makes it current again; the accepted proposal's layout
            // version stays in the history.
            #expect(try cli.run(["menus", "import", file]).output.contains("mail.message: changed, version 2 -> 3"))
            let served = try Self.servedMenus(schema: schema, readKey: readKey)
            #expect(try Self.groups((served["menus"] as? [String: Any])?["mail.message"]).first == ["reply", "reply_all", "forward"])
            #expect(try cli.run(["proposals", "accept", String(secondID)]).status == 1)
        }
    }

    @Test func acceptedLayoutIsServed() throws {
        try TestDatabase.withSchema(prefix: "cliserve") { schema in
            let conn = try schema.connect()
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            let readKey = try #require(try Self.json(try cli.run(["apps", "create", "mail", "--format", "json"]).output)["read_key"] as? String)
            let app: Int32 = try conn.query("SELECT app_id FROM apps WHERE name = 'mail'")[0].decode(at: 0)
            #expect(try cli.run(["menus", "import", try CLIRunner.temporaryFile(Self.manifest)]).status == 0)
            try Self.insertEvents(Self.counts, app: app, on: conn)
            let entry = try Self.entry(try Self.json(try cli.run(
                ["recommend", "--app", "mail", "--as-of", Self.asOf, "--format", "json"]).output))
            let id = try #require(entry["proposal_id"] as? Int)
            #expect(try cli.run(["proposals", "accept", String(id)]).status == 0)
            let served = try Self.servedMenus(schema: schema, readKey: readKey)
            #expect(try Self.groups((served["menus"] as? [String: Any])?["mail.message"])
                == [["reply", "forward", "reply_all"], ["archive", "move", "flag"], ["copy_link", "delete"]])
        }
    }

    /// Starts `menurank serve` on a free port, fetches `GET /v1/menus` with the read key, stops it.
    static func servedMenus(schema: TestSchema, readKey: String) throws -> [String: Any] {
        let daemon = try ChildProcess(try RepositoryPaths.menurankBinary(),
                                      ["serve", "--listen", "127.0.0.1:0", "--database", schema.connectionString])
        defer { daemon.stop() }
        let port = try #require(daemon.listeningPort(timeout: 20), "serve did not report its port: \(daemon.standardError)")
        let curl = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), [
            "-sf", "-H", "Authorization: Bearer \(readKey)", "http://127.0.0.1:\(port)/v1/menus",
        ])
        #expect(curl.status == 0)
        let data = Data(curl.standardOutput.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
