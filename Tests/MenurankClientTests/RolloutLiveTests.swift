import Foundation
import MenurankClient
import TestSupport
import Testing

/// A rollout end to end: `proposals accept --rollout` with the real binary, `GET /v1/menus` from the
/// real daemon, clients of several people picking their arm, their events stored with the shown
/// layout's menu version, the arm kept across restarts, and `rollouts set-share|stop`.
@Suite("MenurankClient: a rollout through menurank serve", TestDatabase.enabled)
struct RolloutLiveTests {
    @Test func eachPersonKeepsTheirArmAndReportsItsVersion() async throws {
        let root = try RepositoryPaths.root()
        let binary = try RepositoryPaths.menurankBinary()
        try await TestDatabase.withSchemaAsync(prefix: "client_rollout") { database in
            let daemon = try LiveDaemon(database: database, app: "mail")
            defer { daemon.stop() }
            func menurank(_ arguments: [String]) throws -> ChildProcess.Outcome {
                try ChildProcess.run(binary, arguments + ["--database", database])
            }
            #expect(try menurank(["menus", "import", root.appendingPathComponent("examples/mail.json").path]).status == 0)
            // A pending proposal made from the current layout: reply and forward swap.
            _ = try daemon.query("""
                INSERT INTO proposals (app_id, element_type, base_layout_version, window_from, window_to, current_layout,
                                       proposed_layout, evidence)
                SELECT app_id, 'mail.message', 1, '2026-11-01', '2026-11-28', layout,
                       '[["forward", "reply_all", "reply"], ["move", "archive", "flag", "mark_unread"], [{"submenu": "Share", "items": ["copy_link", "print"]}], ["open_message"], ["delete"]]',
                       '{}' FROM layouts WHERE element_type = 'mail.message'
                RETURNING proposal_id::text
                """)
            #expect(try menurank(["proposals", "accept", "1", "--rollout", "150%"]).status == 64)
            let accepted = try menurank(["proposals", "accept", "1", "--rollout", "50%", "--by", "ana", "--note", "try it"])
            #expect(accepted.status == 0, "\(accepted.standardError)")
            #expect(accepted.standardOutput.contains("rollout #1") && accepted.standardOutput.contains("50%"))
            let salt = try #require(try daemon.query("SELECT salt FROM rollouts").first)

            let users = (0..<12).map { "person-\($0)" }
            var arms: [String: Bool] = [:]
            for user in users {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let configuration = MenurankConfiguration(endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory,
                                                          readKey: daemon.readKey, context: MenurankContext(user: user))
                var client = try MenurankClient(configuration: configuration)
                let layout = try #require(try await client.layout(for: "mail.message"))
                let expected = RolloutArm.showsRollout(salt: salt, user: user, share: 0.5)
                #expect(layout.isRolloutArm == expected && layout.rollout?.share == 0.5)
                #expect(layout.menuVersion == (expected ? "2026.11.1+2" : "2026.11.1"))
                guard case .command(let first) = layout.groups[0][0] else { Issue.record("no command"); return }
                #expect(first.id == (expected ? "forward" : "reply"))
                arms[user] = expected
                // An event without a menu version carries the shown layout's.
                client.record(elementType: "mail.message", command: first.id, position: 0, latencyMs: 500)
                #expect(client.flushAndWait(timeout: .seconds(60)))
                await client.shutdown()
                // Restarted (its cache and journal kept): the same arm.
                client = try MenurankClient(configuration: configuration)
                #expect(try await client.layouts().menus["mail.message"]?.isRolloutArm == expected)
                await client.shutdown()
            }
            #expect(Set(arms.values).count == 2, "both arms among 12 people: \(arms)")
            let stored = try daemon.query("""
                SELECT c.menu_version || ' ' || count(*) FROM events e JOIN contexts c USING (app_id, context_id)
                GROUP BY c.menu_version ORDER BY 1
                """)
            let inRollout = arms.values.filter { $0 }.count
            #expect(stored == ["2026.11.1 \(users.count - inRollout)", "2026.11.1+2 \(inRollout)"].filter { !$0.hasSuffix(" 0") })

            // The comparison counts each of the 12 people once, in their arm; too few for a verdict.
            let before = try menurank(["rollouts", "show", "1", "--format", "json"])
            let compared = try #require(try JSONSerialization.jsonObject(with: Data(before.standardOutput.utf8)) as? [String: Any])
            let looks = try #require(compared["looks"] as? [[String: Any]])
            let people = try #require(looks.last?["people"] as? [String: Int])
            #expect(people["old"] == users.count - inRollout && people["new"] == inRollout && people["mixed"] == 0)
            #expect(compared["verdict"] as? String == "no difference yet")
            let text = try menurank(["rollouts", "show", "1"])
            #expect(text.status == 0 && text.standardOutput.contains("verdict on "), "\(text.standardOutput)")

            // Widening only; stopping serves the old layout to all and records who and why.
            #expect(try menurank(["rollouts", "set-share", "1", "--share", "20%"]).status == 1)
            #expect(try menurank(["rollouts", "set-share", "1", "--share", "80%", "--by", "bo"]).status == 0)
            let stopped = try menurank(["rollouts", "stop", "1", "--by", "cy", "--note", "enough"])
            #expect(stopped.status == 0, "\(stopped.standardError)")
            let shown = try menurank(["rollouts", "show", "1", "--format", "json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any])
            #expect(json["status"] as? String == "stopped" && json["share"] as? Double == 0.8)
            let decisions = try #require(json["decisions"] as? [[String: Any]])
            #expect(decisions.map { $0["action"] as? String } == ["start", "share", "stop"])
            #expect(decisions.map { $0["by"] as? String } == ["ana", "bo", "cy"])
            // Widening restarted the comparison: nothing since.
            #expect((json["looks"] as? [[String: Any]])?.isEmpty == true)
            let listed = try menurank(["rollouts", "list", "--app", "mail"])
            #expect(listed.status == 0 && listed.standardOutput.contains("stopped"))
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let client = try MenurankClient(configuration: MenurankConfiguration(
                endpoint: daemon.url, writeKey: daemon.writeKey, directory: directory, readKey: daemon.readKey,
                context: MenurankContext(user: arms.first { $0.value }?.key ?? "x")))
            let after = try #require(try await client.layouts().menus["mail.message"])
            #expect(after.rollout == nil && !after.isRolloutArm && after.menuVersion == "2026.11.1")
            await client.shutdown()
        }
    }
}
