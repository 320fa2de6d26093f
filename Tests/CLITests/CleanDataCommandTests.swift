import Foundation
import Postgres
import Testing
import TestSupport

/// Clean data through the real binary and PostgreSQL: test events stay out of rank, recommend and
/// outcomes unless `--include-test`; `--platform` and `--min-app-version` give the numbers a direct
/// count over the events gives, with versions compared as numbers (4.10 after 4.9); bad values are
/// usage errors (exit 64).
@Suite(TestDatabase.enabled) struct CleanDataCommandTests {
    static let platforms = ["iOS 18.1", "Android 14"]
    static let versions = ["4.9", "4.10", "4.10.2"]

    /// DESIGN.md's mail example (`RecommendWithoutDatabaseTests.events`), pick k sent from
    /// platform k mod 2 (so each person stays on one) and version (k / 2) mod 3; then 3,000 test
    /// picks of `print` by 100 testers, which would lift print to the top if they counted.
    static func events() -> [String] {
        var lines: [String] = []
        for (k, line) in RecommendWithoutDatabaseTests.events().enumerated() {
            guard line.contains("\"kind\":\"select\"") else {
                lines.append(line)
                continue
            }
            let context = "\"platform\":\"\(platforms[k % 2])\",\"app_version\":\"\(versions[(k / 2) % 3])\""
            lines.append(String(line.dropLast()) + ",\(context)}")
        }
        for t in 0..<3_000 {
            let day = 20 - t % 28
            let date = day >= 1 ? "2026-11-\(day < 10 ? "0" : "")\(day)" : "2026-10-\(31 + day)"
            let id = String(format: "00000000-0000-4000-9000-%012x", t)
            lines.append("""
                {"id":"\(id)","time":"\(date)T11:00:00Z","element_type":"mail.message","command":"print","kind":"select",\
                "user":"tester\(t % 100)","is_test":true,"platform":"iOS 18.2","app_version":"4.11"}
                """)
        }
        return lines
    }

    /// Per command: selections and user-days of the rank's JSON.
    static func ranked(_ output: String) throws -> [String: [Int]] {
        let entry = try RecommendCommandTests.entry(try RecommendCommandTests.json(output))
        var out: [String: [Int]] = [:]
        for command in try #require(entry["commands"] as? [[String: Any]]) {
            out[try #require(command["command"] as? String)] = [command["selections"] as? Int ?? -1,
                                                                 command["user_days"] as? Int ?? -1]
        }
        return out
    }

    /// The same from the events directly: per command, selections and distinct (day, person).
    static func direct(_ condition: String, on connection: PostgresConnection) throws -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        for row in try connection.query(PostgresQuery(unsafeSQL: """
            SELECT m.name, count(*), count(DISTINCT (e.day, e.user_hash))
            FROM events e
            JOIN commands m ON m.app_id = e.app_id AND m.command_id = e.command_id
            LEFT JOIN contexts c ON c.app_id = e.app_id AND c.context_id = e.context_id
            WHERE e.day BETWEEN DATE '2026-10-24' AND DATE '2026-11-20' AND (\(condition))
            GROUP BY m.name
            """))
        {
            out[try row.decode(String.self, at: 0)] = [try row.decode(Int.self, at: 1), try row.decode(Int.self, at: 2)]
        }
        return out
    }

    @Test func testEventsAreLeftOutAndFiltersCountWhatTheEventsSay() throws {
        let manifest = try CLIRunner.temporaryFile(RecommendCommandTests.manifest)
        let events = try CLIRunner.temporaryFile(Self.events().joined(separator: "\n") + "\n", name: "events.jsonl")
        let asOf = ["--as-of", RecommendCommandTests.asOf]
        try TestDatabase.withSchema(prefix: "clicleandata") { schema in
            let conn = try schema.connect()
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            #expect(try cli.run(["apps", "create", "mail"]).status == 0)
            #expect(try cli.run(["menus", "import", manifest]).status == 0)
            let imported = try cli.run(["import", events, "--app", "mail", "--retention", "36500d"])
            #expect(imported.status == 0, "\(imported.error)")
            #expect(try cli.run(["rollup"]).status == 0)

            // By default the testers' 3,000 picks of print do not count; with --include-test they do.
            let rank = try cli.run(["rank", "--app", "mail", "--format", "json"] + asOf)
            #expect(rank.status == 0, "\(rank.error)")
            let standard = try Self.ranked(rank.output)
            #expect(standard["print"] == [20, 20] && standard["reply"] == [4100, 4100])
            #expect(standard == (try Self.direct("NOT COALESCE(c.is_test, false)", on: conn)))
            let everything = try Self.ranked(try cli.run(["rank", "--app", "mail", "--format", "json", "--include-test"] + asOf).output)
            #expect(everything["print"]?.first == 3020)
            #expect(everything == (try Self.direct("true", on: conn)))

            // One platform, and versions from 4.10 on as numbers: 4.10 and 4.10.2, not 4.9 (which text
            // would put after 4.10). Each equals a direct count over the events.
            let ios = try cli.run(["rank", "--app", "mail", "--format", "json", "--platform", "ios"] + asOf)
            #expect(ios.status == 0, "\(ios.error)")
            #expect(try Self.ranked(ios.output) == (try Self.direct(
                "NOT c.is_test AND c.platform LIKE 'iOS %'", on: conn)))
            let recent = try cli.run(["rank", "--app", "mail", "--format", "json", "--min-app-version", "4.10"] + asOf)
            #expect(try Self.ranked(recent.output) == (try Self.direct(
                "NOT c.is_test AND c.app_version IN ('4.10', '4.10.2')", on: conn)))
            let newest = try Self.ranked(try cli.run(
                ["rank", "--app", "mail", "--format", "json", "--min-app-version", "4.10.1", "--platform", "android,IOS"] + asOf).output)
            #expect(newest == (try Self.direct("NOT c.is_test AND c.app_version = '4.10.2'", on: conn)))
            let both = try Self.ranked(try cli.run(
                ["rank", "--app", "mail", "--format", "json", "--platform", "android", "--platform", "ios", "--include-test",
                 "--min-app-version", "4.10.2"] + asOf).output)
            #expect(both == (try Self.direct("c.app_version IN ('4.10.2', '4.11')", on: conn)))
            #expect(both["print"]?[0] ?? 0 > 3000)

            // recommend: DESIGN.md's proposal by default (print flagged); with the test picks print
            // is among the most used and stays.
            let recommend = ["recommend", "--app", "mail", "--dry-run", "--format", "json"] + asOf
            let proposal = try RecommendCommandTests.entry(try RecommendCommandTests.json(try cli.run(recommend).output))
            #expect(try RecommendCommandTests.groups(proposal["proposed"]) == [
                ["reply", "forward", "reply_all"], ["archive", "move", "flag"], ["copy_link", "delete"]])
            #expect((proposal["prune"] as? [[String: Any]])?.map { $0["command"] as? String } == ["print"])
            let tested = try RecommendCommandTests.entry(try RecommendCommandTests.json(
                try cli.run(recommend + ["--include-test"]).output))
            #expect(try RecommendCommandTests.groups(tested["proposed"]).joined().contains("print"))
            #expect((tested["prune"] as? [[String: Any]])?.isEmpty ?? true)
            // A filtered run files nothing, even without --dry-run.
            let filtered = try cli.run(["recommend", "--app", "mail", "--format", "json", "--platform", "ios"] + asOf)
            #expect(filtered.status == 0, "\(filtered.error)")
            #expect(try conn.query("SELECT count(*) FROM proposals")[0].decode(Int.self, at: 0) == 0)
            let iosProposal = try RecommendCommandTests.entry(try RecommendCommandTests.json(filtered.output))
            #expect(iosProposal["proposal_id"] is NSNull)
            #expect(iosProposal["selections"] as? Int == (try Self.direct("NOT c.is_test AND c.platform LIKE 'iOS %'", on: conn))
                .values.map { $0[0] }.reduce(0, +))

            // Without a database: the same filters on the same events give the same counts.
            let nowhere = ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/nothing", "PGHOST": "/nonexistent"]
            let offline = ["recommend", "--manifest", manifest, "--events", events, "--format", "json"] + asOf
            for extra in [[], ["--include-test"], ["--platform", "ios"], ["--min-app-version", "4.10"]] {
                let memory = try RecommendCommandTests.entry(try RecommendCommandTests.json(
                    try CLIRunner(database: nil).run(offline + extra, environment: nowhere).output))
                let stored = try RecommendCommandTests.entry(try RecommendCommandTests.json(try cli.run(recommend + extra).output))
                #expect(memory["selections"] as? Int == stored["selections"] as? Int, "\(extra)")
                #expect(try RecommendCommandTests.groups(memory["proposed"]) == RecommendCommandTests.groups(stored["proposed"]),
                        "\(extra)")
            }

            // outcomes: opens per menu version (none sent here), by the same rules.
            func opens(_ extra: [String]) throws -> Int? {
                let run = try cli.run(["outcomes", "--app", "mail", "--format", "json"] + asOf + extra)
                #expect(run.status == 0, "\(run.error)")
                let document = try RecommendCommandTests.json(run.output)
                let types = try #require(document["element_types"] as? [[String: Any]])
                let versions = try #require(types.first?["versions"] as? [[String: Any]])
                return versions.compactMap { $0["opens"] as? Int }.reduce(0, +)
            }
            #expect(try opens([]) == 10_141)                                // the picks and p1's dismissal
            #expect(try opens(["--include-test"]) == 13_141)
            #expect(try opens(["--platform", "android"]) == (try Self.direct("NOT c.is_test AND c.platform LIKE 'Android %'",
                                                                              on: conn)).values.map { $0[0] }.reduce(0, +))

            // Bad values: usage errors, for every command that takes them.
            for command in [["rank", "--app", "mail"], ["recommend", "--app", "mail", "--dry-run"], ["outcomes", "--app", "mail"]] {
                let platform = try cli.run(command + ["--platform", "iOS 18"])
                #expect(platform.status == 64 && platform.error.contains("--platform takes platform names"), "\(platform.error)")
                let empty = try cli.run(command + ["--platform", "ios,"])
                #expect(empty.status == 64, "\(empty.error)")
                let version = try cli.run(command + ["--min-app-version", "4.x"])
                #expect(version.status == 64 && version.error.contains("--min-app-version takes a version of dotted numbers"),
                        "\(version.error)")
            }
            let offlineBad = try CLIRunner(database: nil).run(offline + ["--min-app-version", "v4"], environment: nowhere)
            #expect(offlineBad.status == 64, "\(offlineBad.error)")
        }
    }
}
