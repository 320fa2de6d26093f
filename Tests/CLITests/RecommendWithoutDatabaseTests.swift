import Foundation
import Testing
import TestSupport

/// `menurank recommend --manifest FILE --events FILE.jsonl` through the real binary: DESIGN.md's
/// mail example without a database, and the same document as the database path (import, rollup,
/// recommend) on the same events.
@Suite(TestDatabase.enabled) struct RecommendWithoutDatabaseTests {
    /// The example's 28-day selections as import lines: pick k (over all commands) by person
    /// k mod 800 on day k mod 28 before the last day, so each command's picks are by different people
    /// on different days (user-days equal selections) and 800 people used the menu; one dismissal.
    static func events() -> [String] {
        var lines: [String] = []
        var k = 0
        for (command, count) in RecommendCommandTests.counts {
            for _ in 0..<count {
                let day = 20 - k % 28
                let date = day >= 1 ? "2026-11-\(day < 10 ? "0" : "")\(day)" : "2026-10-\(31 + day)"
                let id = String(format: "00000000-0000-4000-8000-%012x", k)
                lines.append("""
                    {"id":"\(id)","time":"\(date)T09:00:00Z","element_type":"mail.message","command":"\(command)",\
                    "kind":"select","user":"p\(k % 800)"}
                    """)
                k += 1
            }
        }
        lines.append("""
            {"id":"00000000-0000-4000-8000-ffffffffffff","time":"2026-11-19T10:00:00Z","element_type":"mail.message",\
            "kind":"dismiss","user":"p1"}
            """)
        return lines
    }

    static func entry(_ output: String) throws -> [String: Any] {
        try RecommendCommandTests.entry(try RecommendCommandTests.json(output))
    }

    @Test func theMailExampleWithoutADatabaseIsTheDocumentOfTheDatabasePath() throws {
        let manifest = try CLIRunner.temporaryFile(RecommendCommandTests.manifest)
        let lines = Self.events()
        let events = try CLIRunner.temporaryFile(lines.joined(separator: "\n") + "\n", name: "events.jsonl")
        // No database: a DATABASE_URL that nothing listens on is never used.
        let nowhere = ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/nothing", "PGHOST": "/nonexistent"]
        let fileRun = ["recommend", "--manifest", manifest, "--events", events, "--as-of", RecommendCommandTests.asOf]
        let offline = try CLIRunner(database: nil).run(fileRun + ["--format", "json"], environment: nowhere)
        #expect(offline.status == 0, "\(offline.error)")
        let entry = try Self.entry(offline.output)
        #expect(entry["selections"] as? Int == 10_140 && entry["users"] as? Int == 800 && entry["dismissals"] as? Int == 1)
        #expect(entry["proposal_id"] is NSNull)
        #expect(try RecommendCommandTests.groups(entry["proposed"]) == [
            ["reply", "forward", "reply_all"], ["archive", "move", "flag"], ["copy_link", "delete"]])
        let prune = try #require(entry["prune"] as? [[String: Any]])
        #expect(prune.map { $0["command"] as? String } == ["print"])
        #expect(prune.first?["users"] as? Int == 20)
        #expect(prune.first?["share"] as? Double == 0.001972)
        // The same bytes on every run (invariant 8), in every format.
        #expect(try CLIRunner(database: nil).run(fileRun + ["--format", "json"], environment: nowhere).output == offline.output)
        let markdown = try CLIRunner(database: nil).run(fileRun + ["--format", "markdown"], environment: nowhere)
        #expect(markdown.status == 0 && markdown.output.contains("Print"), "\(markdown.error)")

        // A refused line is reported with its number (exit 2 after the output); the rest still counts.
        let broken = try CLIRunner.temporaryFile(lines.joined(separator: "\n") + "\n{\"id\": 1}\n", name: "broken.jsonl")
        let partly = try CLIRunner(database: nil).run(
            ["recommend", "--manifest", manifest, "--events", broken, "--as-of", RecommendCommandTests.asOf,
             "--format", "json"], environment: nowhere)
        #expect(partly.status == 2)
        #expect(partly.error.contains("line \(lines.count + 1): "), "\(partly.error)")
        #expect(partly.output == offline.output)
        // Usage errors.
        let alone = try CLIRunner(database: nil).run(["recommend", "--manifest", manifest], environment: nowhere)
        #expect(alone.status == 64 && alone.error.contains("--manifest and --events go together"), "\(alone.error)")

        // The database path on the same events: the same document, but for the proposal it filed.
        try TestDatabase.withSchema(prefix: "clioffline") { schema in
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            #expect(try cli.run(["apps", "create", "mail"]).status == 0)
            #expect(try cli.run(["menus", "import", manifest]).status == 0)
            let imported = try cli.run(["import", events, "--app", "mail", "--retention", "36500d"])
            #expect(imported.status == 0, "\(imported.error)")
            let online = try cli.run(["recommend", "--app", "mail", "--as-of", RecommendCommandTests.asOf, "--format", "json"])
            #expect(online.status == 0, "\(online.error)")
            var stored = try RecommendCommandTests.json(online.output)
            var types = try #require(stored["element_types"] as? [[String: Any]])
            #expect(types.count == 1)
            #expect(types[0]["proposal_id"] as? Int != nil)
            types[0]["proposal_id"] = NSNull()
            stored["element_types"] = types
            let memory = try RecommendCommandTests.json(offline.output)
            let differences = Self.differences(stored, memory)
            #expect(differences.isEmpty, "\(differences)\ndatabase: \(online.output)\nmemory: \(offline.output)")
            // Reach in the database comes from hll sketches (standard error about 2.3%, so within 8%, 3.5
            // standard errors, of the exact count for 800 people), so the two documents differ there only.
            #expect(Self.differences(stored, memory, usersWithin: 0).contains { $0.hasSuffix(".users") })
        }
    }

    /// Where two JSON values differ (paths). What the database estimates with hll sketches (an
    /// element type's and each command's `users`, and what is computed from them: `reach_low` and
    /// `reach_high`, and the model's expertise behind `seconds` and `time_saved_seconds`) counts as
    /// equal within `usersWithin` of each other (relative; at least 1 for `users`); the seconds,
    /// which move less than the reach they come from, within a third of that (a 2.75% low user
    /// estimate, 778 for 800, moved a ladder step's seconds by 0.82%: about a third).
    static func differences(_ a: Any, _ b: Any, path: String = "$", usersWithin: Double = 0.08) -> [String] {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            guard Set(a.keys) == Set(b.keys) else { return [path + " keys"] }
            return a.keys.sorted().flatMap { key -> [String] in
                let here = path + "." + key
                if key == "users", let x = a[key] as? Int, let y = b[key] as? Int {
                    return abs(Double(x - y)) <= max(usersWithin > 0 ? 1 : 0, Double(y) * usersWithin) ? [] : [here]
                }
                let estimated = ["reach_low", "reach_high"].contains(key) ? usersWithin
                    : (key == "time_saved_seconds" || path.hasSuffix(".evidence.seconds") || (key == "seconds" && path.contains(".ladder["))) ? usersWithin / 3 : nil
                if let within = estimated, let x = (a[key] as? NSNumber)?.doubleValue, let y = (b[key] as? NSNumber)?.doubleValue {
                    return abs(x - y) <= abs(y) * within + 1e-4 ? [] : [here]
                }
                return differences(a[key]!, b[key]!, path: here, usersWithin: usersWithin)
            }
        case let (a as [Any], b as [Any]):
            guard a.count == b.count else { return [path + " count"] }
            return zip(a, b).enumerated().flatMap { differences($1.0, $1.1, path: path + "[\($0)]", usersWithin: usersWithin) }
        default:
            return String(describing: a) == String(describing: b) ? [] : [path]
        }
    }
}
