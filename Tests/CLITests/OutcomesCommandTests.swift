import Foundation
import Postgres
import Testing
import TestSupport

/// `menurank outcomes` and the outcome charts of `menurank report` with the real binary: events
/// under the imported layout's menu version for two weeks, a proposal accepted, then today both
/// versions served (clients update over the day), the new one faster. The verdict is `faster` over
/// the same day, unknown and missing versions are reported, and the report's charts render in real
/// headless Chromium with axes, labels and no console errors.
@Suite(TestDatabase.enabled) struct OutcomesCommandTests {
    static let manifest = """
        {"app": "mail", "version": "2026.11.1",
         "commands": {"reply": {"title": "Reply"}, "forward": {"title": "Forward"}, "archive": {"title": "Archive"},
                      "print": {"title": "Print"}, "delete": {"title": "Delete", "destructive": true}},
         "menus": {"mail.message": {"groups": [["archive", "print"], ["forward", "reply"], ["delete"]]}}}
        """

    /// JSON Lines of events: `count` per day for each (day offset from today, version, median ms).
    static func events(_ plan: [(daysAgo: Int, version: String?, count: Int, median: Double, dismissals: Int)]) -> String {
        var seed: UInt64 = 20_261_201
        func uniform() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) + 0.5) / Double(1 << 53)
        }
        let now = Date()
        let secondsToday = Int(now.timeIntervalSince1970) % 86_400
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var lines: [String] = []
        var n = 0
        let commands = ["reply", "forward", "archive", "print"]
        for entry in plan {
            for i in 0..<(entry.count + entry.dismissals) {
                n += 1
                // Spread over the hours of the day before now, so that each lies on its own day
                // (today's are all in the past) whatever the time the test runs.
                let offset = 1 + (i * 7) % max(1, secondsToday - 1)
                let time = now.addingTimeInterval(-Double(entry.daysAgo) * 86_400 - Double(offset))
                let id = String(format: "00000000-0000-4000-8000-%012x", n)
                var fields = "\"id\": \"\(id)\", \"time\": \"\(formatter.string(from: time))\", "
                    + "\"element_type\": \"mail.message\", \"user\": \"u\(n % 97)\""
                if let version = entry.version { fields += ", \"menu_version\": \"\(version)\"" }
                if i < entry.dismissals {
                    fields += ", \"kind\": \"dismiss\", \"latency_ms\": 2500"
                } else {
                    let z = (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
                    let latency = Int(entry.median * exp(0.5 * z))
                    fields += ", \"command\": \"\(commands[n % 4])\", \"position\": \(n % 4), \"latency_ms\": \(latency)"
                }
                lines.append("{\(fields)}")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func outcomesOfAnAcceptedLayoutAndTheirChartsInChromium() throws {
        try TestDatabase.withSchema(prefix: "clioutcomes") { schema in
            let conn = try schema.connect()
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            #expect(try cli.run(["apps", "create", "mail"]).status == 0)
            #expect(try cli.run(["menus", "import", try CLIRunner.temporaryFile(Self.manifest)]).status == 0)

            // Two weeks under version 1.
            var plan: [(daysAgo: Int, version: String?, count: Int, median: Double, dismissals: Int)] =
                (1...14).map { (daysAgo: $0, version: "2026.11.1", count: 60, median: 1500, dismissals: 6) }
            // A proposal (as recommend files it) accepted today.
            let app: Int32 = try conn.query("SELECT app_id FROM apps WHERE name = 'mail'")[0].decode(at: 0)
            let proposal: Int64 = try conn.query("""
                INSERT INTO proposals (app_id, element_type, base_layout_version, window_from, window_to, current_layout,
                                       proposed_layout, evidence)
                VALUES (\(app), 'mail.message', 1, current_date - 28, current_date - 1,
                        '[["archive", "print"], ["forward", "reply"], ["delete"]]',
                        '[["reply", "forward"], ["archive", "print"], ["delete"]]',
                        '{"scan_depth": {"current": 3.1, "proposed": 1.9}, "time_saved_seconds": 0.48}')
                RETURNING proposal_id
                """)[0].decode(at: 0)
            let accepted = try cli.run(["proposals", "accept", String(proposal), "--by", "test"])
            #expect(accepted.status == 0, "\(accepted.error)")
            #expect(accepted.output.contains("menu_version 2026.11.1+2"), "\(accepted.output)")
            // Today: clients still on version 1, clients on version 2 (faster, fewer dismissals), one
            // build sending a version no layout has, one sending none.
            plan += [(daysAgo: 0, version: "2026.11.1", count: 260, median: 1500, dismissals: 26),
                     (daysAgo: 0, version: "2026.11.1+2", count: 400, median: 950, dismissals: 8),
                     (daysAgo: 0, version: "2026.10-dev", count: 30, median: 1200, dismissals: 3),
                     (daysAgo: 0, version: nil, count: 20, median: 1200, dismissals: 0)]
            let events = try CLIRunner.temporaryFile(Self.events(plan), name: "events.jsonl")
            let imported = try cli.run(["import", events, "--app", "mail"])
            #expect(imported.status == 0, "\(imported.error)")
            #expect(try cli.run(["rollup"]).status == 0)

            let json = try cli.run(["outcomes", "--app", "mail", "--window", "28d", "--format", "json"])
            #expect(json.status == 0, "\(json.error)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            let types = try #require(document["element_types"] as? [[String: Any]])
            let message = try #require(types.first)
            let versions = try #require(message["versions"] as? [[String: Any]])
            #expect(versions.map { $0["menu_version"] as? String } == ["2026.11.1", "2026.11.1+2", "2026.10-dev", ""])
            #expect(versions.map { $0["status"] as? String } == ["known", "known", "unknown", "not_sent"])
            #expect(versions[0]["opens"] as? Int == 14 * 66 + 286)
            #expect(versions[2]["opens"] as? Int == 33)
            let comparison = try #require((message["comparisons"] as? [[String: Any]])?.first)
            #expect(comparison["verdict"] as? String == "faster", "\(comparison)")
            #expect((comparison["method"] as? [String: Any])?["kind"] as? String == "same_days")
            let difference = try #require(comparison["median_latency_difference_ms"] as? [String: Double])
            #expect(difference["high"]! < 0 && difference["low"]! < difference["estimate"]!)
            #expect((comparison["predicted"] as? [String: Any])?["scan_depth_after"] as? Double == 1.9)

            let text = try cli.run(["outcomes", "--app", "mail"])
            #expect(text.status == 0)
            #expect(text.output.contains("2026.11.1+2 (layout v2, accepted from proposal #\(proposal)) against 2026.11.1 (v1): faster"))
            #expect(text.output.contains("compared over the same 1 day(s) on which both were served"))
            #expect(text.output.contains("predicted scan depth 3.10 -> 1.90"))
            let markdown = try cli.run(["outcomes", "--app", "mail", "--element-type", "mail.message", "--format", "markdown"])
            #expect(markdown.output.contains("### `mail.message`") && markdown.output.contains("| `2026.10-dev` | unknown |"))
            #expect(try cli.run(["outcomes", "--app", "mail", "--window", "2h"]).status == 64)
            #expect(try cli.run(["outcomes", "--app", "nosuch"]).status == 1)

            // The HTML report's outcome charts in real headless Chromium.
            let html = try RepositoryPaths.root().appendingPathComponent(".menurank/outcomes-report.html").path
            let report = try cli.run(["report", "--app", "mail", "--out", html])
            #expect(report.status == 0, "\(report.error)")
            try Self.checkChartsInChromium(html)
        }
    }

    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func checkChartsInChromium(_ html: String) throws {
        guard let chromium else {
            // Only where chromium cannot be installed (scripts/deps installs it; CI fails below).
            if ProcessInfo.processInfo.environment["CI"] != nil {
                Issue.record("chromium is not installed; scripts/deps installs it")
            } else {
                print("OutcomesCommandTests: skipping the browser check: chromium is not installed (scripts/deps installs it)")
            }
            return
        }
        let root = try RepositoryPaths.root()
        let script = root.appendingPathComponent("Tests/browser/report_charts.py").path
        let screenshot = root.appendingPathComponent(".menurank/outcomes-report.png").path
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", script, "--file", html, "--chromium", chromium, "--screenshot", screenshot,
        ])
        try #require(result.status == 0, "report_charts.py failed: \(result.standardError)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(seen["console_problems"] as? [String] == [], "\(seen["console_problems"] ?? "")")
        #expect(seen["outcome_sections"] as? Int == 1)
        #expect((seen["verdicts"] as? [String])?.contains("faster") == true)
        let charts = try #require(seen["charts"] as? [[String: Any]])
        let outcome = charts.filter { $0["kind"] is String }
        #expect(outcome.compactMap { $0["kind"] as? String }.sorted() == ["dismissal", "latency"])
        for chart in charts {
            // Every chart is laid out with a size.
            #expect((chart["width"] as? Double ?? 0) > 100 && (chart["height"] as? Double ?? 0) > 50, "\(chart)")
        }
        for chart in outcome {
            let name = chart["id"] as? String ?? "?"
            #expect(chart["x_axis_lines"] as? Int == 1 && chart["y_axis_lines"] as? Int == 1, "\(name): axes")
            #expect((chart["x_ticks"] as? [String])?.count ?? 0 >= 2, "\(name): x ticks \(chart)")
            #expect((chart["y_ticks"] as? [String])?.isEmpty == false, "\(name): y ticks")
            #expect((chart["x_label"] as? String)?.isEmpty == false && chart["x_label_drawn"] as? Int == 1, "\(name)")
            #expect((chart["y_label"] as? String)?.isEmpty == false && chart["y_label_drawn"] as? Int == 1, "\(name)")
            #expect((chart["series"] as? [String])?.count == 4, "\(name): one series per version")
            #expect(chart["series_drawn"] as? Int == 4, "\(name): every series drawn")
        }
        let latency = try #require(outcome.first { $0["kind"] as? String == "latency" })
        #expect((latency["legend"] as? [String])?.contains("2026.11.1+2 (v2)") == true)
        #expect((latency["x_label"] as? String)?.contains("latency") == true)
        let dismissal = try #require(outcome.first { $0["kind"] as? String == "dismissal" })
        #expect((dismissal["y_ticks"] as? [String])?.contains("2026.10-dev (unknown)") == true)
    }
}
