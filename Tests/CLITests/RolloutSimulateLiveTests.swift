import Foundation
import HTTP
import Postgres
import Testing
import TestSupport

/// The whole loop of a rollout on simulated traffic: a current layout with the used commands last,
/// a proposal with them first accepted for half of the people, `GET /v1/menus` from the real daemon
/// given to `menurank simulate` (people in both arms by the device rule, each arm's latency from its
/// layout), the events through the library into PostgreSQL, and `menurank rollouts show`: better.
@Suite("a rollout on simulated traffic", TestDatabase.enabled)
struct RolloutSimulateLiveTests {
    @Test func aFasterLayoutIsBetterEndToEnd() throws {
        try withSimulatedRollout(prefix: "rollout_better", fasterNew: true) { database, port, headers in
            let shown = try CLIRunner().run(["rollouts", "show", "1", "--format", "json", "--database", database])
            try #require(shown.status == 0, "\(shown.error)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
            #expect(json["verdict"] as? String == "better", "\(shown.output.suffix(1500))")
            let look = try #require((json["looks"] as? [[String: Any]])?.last)
            let people = try #require(look["people"] as? [String: Int])
            #expect((people["old"] ?? 0) >= 30 && (people["new"] ?? 0) >= 30 && people["mixed"] == 0, "\(people)")
            let median = try #require((look["metrics"] as? [String: [String: Any]])?["median_latency_ms"])
            #expect((median["upper"] as? Double ?? 0) < 0, "\(median)")
            let text = try CLIRunner().run(["rollouts", "show", "1", "--database", database])
            #expect(text.output.contains("verdict on ") && text.output.contains(": better: "), "\(text.output)")

            // outcomes and report show it.
            let outcomes = try CLIRunner().run(["outcomes", "--app", "mail", "--format", "json", "--database", database])
            let outcomesJSON = try #require(try JSONSerialization.jsonObject(with: Data(outcomes.output.utf8)) as? [String: Any],
                                            "\(outcomes.error)")
            let listed = try #require(outcomesJSON["rollouts"] as? [[String: Any]])
            #expect(listed.count == 1 && listed.first?["verdict"] as? String == "better")
            // The rollout arm's menu version is labelled as the rollout's, not "unknown" (both arms named alike).
            let message = (outcomesJSON["element_types"] as? [[String: Any]])?.first { $0["element_type"] as? String == "mail.message" }
            let versions = (message?["versions"] as? [[String: Any]]) ?? []
            let arm = try #require(versions.first { $0["menu_version"] as? String == "r1+2" }, "\(versions)")
            #expect(arm["status"] as? String == "rollout" && arm["rollout_id"] as? Int == 1, "\(arm)")
            #expect(!versions.contains { $0["status"] as? String == "unknown" }, "\(versions)")
            let outcomesText = try CLIRunner().run(["outcomes", "--app", "mail", "--database", database])
            #expect(outcomesText.output.contains("rollout #1 mail.message (running, 50% of people): current r1 vs rollout r1+2: better"),
                    "\(outcomesText.output)")
            let armLine = outcomesText.output.split(separator: "\n").first { $0.contains("r1+2") && !$0.contains("rollout #1 mail") }
            #expect(armLine?.contains("rollout #1 (proposal #1)") == true && outcomesText.output.contains(" current, "),
                    "\(outcomesText.output)")
            let reportFile = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).html")
            defer { try? FileManager.default.removeItem(at: reportFile) }
            let report = try CLIRunner().run(["report", "--app", "mail", "--out", reportFile.path, "--database", database])
            #expect(report.status == 0, "\(report.error)")
            let html = try String(contentsOf: reportFile, encoding: .utf8)
            #expect(html.contains("Rollout #1") && html.contains("id=\"rollout-1-median_latency_ms\"")
                && html.contains("rollout-verdict better"))
            if let keep = ProcessInfo.processInfo.environment["MENURANK_KEEP_ROLLOUT_REPORT"] {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(atPath: reportFile.path, toPath: keep)
            }

            // The night with --decide-rollouts promotes it: the rollout's layout and menu version become
            // current for everyone, recorded with the verdict's reason.
            let night = try CLIRunner().run(["recommend", "--app", "mail", "--decide-rollouts", "--format", "json",
                                             "--database", database])
            #expect(night.status == 0, "\(night.error)")
            #expect(night.error.contains("rollout #1 (mail mail.message): promoted: median selection latency is lower"),
                    "\(night.error)")
            let after = try #require(try JSONSerialization.jsonObject(with: Data(
                try CLIRunner().run(["rollouts", "show", "1", "--format", "json", "--database", database]).output.utf8))
                as? [String: Any])
            #expect(after["status"] as? String == "promoted")
            let last = try #require((after["decisions"] as? [[String: Any]])?.last)
            #expect(last["action"] as? String == "promote" && last["by"] as? String == "recommend")
            #expect((last["note"] as? String)?.hasPrefix("recommend: better: ") == true)
            let promoted = try HTTPClient(port: port).send(method: "GET", path: "/v1/menus/mail.message", headers: headers)
            #expect(promoted.text.contains("\"menu_version\":\"r1+2\"") && !promoted.text.contains("\"rollout\""),
                    "\(promoted.text)")
        }
    }

    @Test func aSlowerLayoutIsWorseAndTheNightStopsIt() throws {
        try withSimulatedRollout(prefix: "rollout_worse", fasterNew: false) { database, port, headers in
            let shown = try CLIRunner().run(["rollouts", "show", "1", "--format", "json", "--database", database])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
            #expect(json["verdict"] as? String == "worse", "\(shown.output.suffix(1500))")
            let night = try CLIRunner().run(["recommend", "--app", "mail", "--decide-rollouts", "--format", "json",
                                             "--database", database])
            #expect(night.status == 0, "\(night.error)")
            #expect(night.error.contains("rollout #1 (mail mail.message): stopped: median selection latency is higher"),
                    "\(night.error)")
            let after = try #require(try JSONSerialization.jsonObject(with: Data(
                try CLIRunner().run(["rollouts", "show", "1", "--format", "json", "--database", database]).output.utf8))
                as? [String: Any])
            #expect(after["status"] as? String == "stopped")
            #expect(((after["decisions"] as? [[String: Any]])?.last?["note"] as? String)?.hasPrefix("recommend: worse: ") == true)
            let status = try PostgresConnection(database).query("SELECT status FROM proposals WHERE proposal_id = 1")
                .map { try $0.decode(String.self, at: 0) }
            #expect(status == ["rejected"])
            let menus = try HTTPClient(port: port).send(method: "GET", path: "/v1/menus/mail.message", headers: headers)
            #expect(menus.text.contains("\"menu_version\":\"r1\"") && !menus.text.contains("\"rollout\""), "\(menus.text)")
        }
    }

    /// The loop up to the comparison: mail.message's current layout, a proposal accepted for half
    /// of the people, what the daemon then serves handed to `simulate --live` (6,000 events of 300
    /// people through the library). `fasterNew`: the current layout has the commands in reverse and
    /// the proposal in the manifest's order (the popularity simulate gives them roughly follows
    /// it), else the other way round. `body` gets the database, the daemon's port and the read key's
    /// header.
    private func withSimulatedRollout(prefix: String, fasterNew: Bool,
                                      _ body: (String, UInt16, HTTPHeaders) throws -> Void) throws {
        let live = SimulateLiveTests()
        try live.withDaemon(prefix: prefix, app: "mail") { schema, keys, port in
            let database = schema.connectionString
            let root = try RepositoryPaths.root()
            let manifestPath = root.appendingPathComponent("examples/mail.json").path
            let manifest = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
            let menus = try #require(manifest["menus"] as? [String: [String: Any]])
            let natural = try #require(menus["mail.message"]?["groups"] as? [Any])
            // mail.message's commands in reverse, three to a group: the slow layout.
            func commands(_ value: Any) -> [String] {
                if let id = value as? String { return [id] }
                if let list = value as? [Any] { return list.flatMap(commands) }
                return ((value as? [String: Any])?["items"] as? [Any]).map(commands) ?? []
            }
            let reversed = Array(commands(natural).reversed())
            let slow = stride(from: 0, to: reversed.count, by: 3).map { Array(reversed[$0..<min($0 + 3, reversed.count)]) }
            var current = manifest
            current["version"] = "r1"
            current["menus"] = ["mail.message": ["groups": fasterNew ? slow as [Any] : natural]]
            let currentFile = FileManager.default.temporaryDirectory.appendingPathComponent("current-\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: current).write(to: currentFile)
            defer { try? FileManager.default.removeItem(at: currentFile) }
            let imported = try CLIRunner().run(["menus", "import", currentFile.path, "--database", database])
            try #require(imported.status == 0, "\(imported.error)")
            // The proposal, accepted for half of the people.
            let proposed = String(decoding: try JSONSerialization.data(withJSONObject: fasterNew ? natural : slow), as: UTF8.self)
            let currentText = String(decoding: try JSONSerialization.data(withJSONObject: fasterNew ? slow : natural),
                                     as: UTF8.self)
            try schema.connect().execute("""
                INSERT INTO proposals (app_id, element_type, base_layout_version, window_from, window_to, current_layout,
                                       proposed_layout, evidence)
                SELECT app_id, 'mail.message', 1, '2026-11-01', '2026-11-28', \(currentText)::jsonb, \(proposed)::jsonb, '{}'
                FROM apps WHERE name = 'mail'
                """)
            let accepted = try CLIRunner().run(["proposals", "accept", "1", "--rollout", "50%", "--database", database])
            try #require(accepted.status == 0, "\(accepted.error)")

            // What the daemon serves, as simulate --layout reads it.
            var headers = HTTPHeaders()
            headers.set("Authorization", "Bearer \(keys.read)")
            let served = try HTTPClient(port: port).send(method: "GET", path: "/v1/menus", headers: headers)
            try #require(served.status == 200 && served.text.contains("\"rollout\""), "\(served.text)")
            let layoutFile = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString).json")
            try Data(served.body).write(to: layoutFile)
            defer { try? FileManager.default.removeItem(at: layoutFile) }
            let run = try live.summary(CLIRunner().run(
                ["simulate", "--url", "http://127.0.0.1:\(port)", "--key", keys.write, "--manifest", manifestPath,
                 "--layout", layoutFile.path, "--live", "--events", "6000", "--users", "300", "--seed", "5",
                 "--batch-size", "250", "--concurrency", "2", "--format", "json"]))
            #expect(run["accepted"] as? Int == 6000)
            try body(database, port, headers)
        }
    }
}
