import Foundation
import Postgres
import Testing
import TestSupport

/// The nightly `recommend` reads the window while its rollup writes the new day (`RollupPreview`):
/// with the real binary, a night that rolls up and recommends in one run prints exactly what a
/// rollup followed by a recommend prints, and files the same proposals.
@Suite(TestDatabase.enabled) struct NightlyPreviewCommandTests {
    /// One schema's night: the mail example's 28 days rolled up, then a new day and a late day
    /// queued; with `separateRollup` the night runs `rollup --all` before `recommend --all`.
    static func night(separateRollup: Bool) throws -> (output: String, log: String, proposals: [String]) {
        try TestDatabase.withSchema(prefix: "clipreview") { schema in
            let conn = try schema.connect()
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            #expect(try cli.run(["apps", "create", "mail"]).status == 0)
            let app: Int32 = try conn.query("SELECT app_id FROM apps WHERE name = 'mail'")[0].decode(at: 0)
            let file = try CLIRunner.temporaryFile(RecommendCommandTests.manifest)
            #expect(try cli.run(["menus", "import", file]).status == 0)
            try RecommendCommandTests.insertEvents(RecommendCommandTests.counts, app: app, on: conn)
            let rolled = try cli.run(["rollup", "--all"])
            #expect(rolled.status == 0, "\(rolled.error)")

            // The new day (2026-11-21) and a late day in the window, with new people: print and
            // delete gain, so the proposal changes and its stability is computed from the days.
            let newDay = "2026-11-21"
            try TestDatabase.ensureEventPartitions(through: newDay, days: 2, on: conn)
            for (day, command, count) in [(newDay, "print", 600), (newDay, "delete", 900), ("2026-11-17", "print", 500),
                                          (newDay, "reply", 100)] {
                try conn.withTransaction { conn in
                    try conn.execute("""
                        INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id)
                        SELECT \(app), \(day)::date, \(day)::date + interval '15 hours', 900 + g % 300, gen_random_uuid(),
                               e.element_type_id, c.command_id
                        FROM generate_series(1, \(count)) g, element_types e, commands c
                        WHERE e.app_id = \(app) AND e.name = 'mail.message' AND c.app_id = \(app) AND c.name = \(command)
                        """)
                    try conn.execute("INSERT INTO rollup_queue (app_id, day) VALUES (\(app), \(day)::date)")
                }
            }
            if separateRollup {
                let rollup = try cli.run(["rollup", "--all"])
                #expect(rollup.status == 0, "\(rollup.error)")
            }
            let recommend = try cli.run(["recommend", "--all", "--as-of", newDay, "--format", "json", "--log-level", "debug"])
            #expect(recommend.status == 0, "\(recommend.error)")
            let proposals = try conn.query("SELECT element_type || ' ' || status || ' ' || proposed_layout::text || ' ' || evidence::text FROM proposals ORDER BY proposal_id")
                .map { try $0.decode(String.self, at: 0) }
            // The night after: nothing queued, nothing new filed, the same document.
            let again = try cli.run(["recommend", "--all", "--as-of", newDay, "--format", "json"])
            #expect(again.output == recommend.output)
            return (recommend.output, recommend.error, proposals)
        }
    }

    @Test func readingWhileTheRollupWritesGivesTheSameNight() throws {
        let separate = try Self.night(separateRollup: true)
        let together = try Self.night(separateRollup: false)
        #expect(together.log.contains("while the rollup wrote") && together.log.contains("days=2"), "\(together.log)")
        #expect(!separate.output.isEmpty)
        #expect(together.output == separate.output)
        #expect(together.proposals == separate.proposals)
        #expect(together.proposals.count == 1)
        #expect(separate.output.contains("\"stability\""))
    }
}
