import Foundation
import Postgres
import Storage
import TestSupport
import Testing

/// The browser client (`clients/web/menurank.js`) and the web example in real headless Chromium
/// against real `menurank serve` daemons, the page (served by one daemon on 127.0.0.2) calling the
/// API of another (127.0.0.1): driven by `Tests/browser/web_client.py` over the DevTools protocol,
/// which stops and starts the API daemon; this test then checks what PostgreSQL holds.
@Suite(TestDatabase.enabled) struct WebClientBrowserTests {
    @Test func pageRecordsPicksThroughOutagesReloadsAndRetryAfter() throws {
        let chromium = try #require(ReviewPageBrowserTests.chromium, "chromium is not installed (scripts/deps installs it)")
        try TestDatabase.withSchema(prefix: "webclient") { schema in
            try Migrations.apply(on: schema.connect())
            let environment = ["DATABASE_URL": schema.connectionString]
            let created = try ChildProcess.menurank(["apps", "create", "mail", "--format", "json"], environment: environment)
            try #require(created.status == 0, "\(created.standardError)")
            let keys = try #require(try JSONSerialization.jsonObject(with: Data(created.standardOutput.utf8)) as? [String: String])
            let root = try RepositoryPaths.root()
            let imported = try ChildProcess.menurank(["menus", "import", root.appendingPathComponent("examples/mail.json").path],
                                                     environment: environment)
            try #require(imported.status == 0, "\(imported.standardError)")

            // A pending proposal of mail.message (reply and forward swapped), rolled out at the end.
            let proposal: Int64 = try schema.connect().query("""
                INSERT INTO proposals (app_id, element_type, base_layout_version, window_from, window_to, current_layout,
                                       proposed_layout, evidence)
                SELECT app_id, 'mail.message', 1, '2026-11-01', '2026-11-28', layout,
                       '[["forward", "reply_all", "reply"], ["move", "archive", "flag", "mark_unread"], [{"submenu": "Share", "items": ["copy_link", "print"]}], ["open_message"], ["delete"]]',
                       '{}' FROM layouts WHERE element_type = 'mail.message'
                RETURNING proposal_id
                """)[0].decode(at: 0)

            let scratch = root.appendingPathComponent(".menurank")
            let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                "python3", root.appendingPathComponent("Tests/browser/web_client.py").path,
                "--menurank", try RepositoryPaths.menurankBinary().path, "--database", schema.connectionString,
                "--app", "mail", "--write-key", try #require(keys["write_key"]), "--read-key", try #require(keys["read_key"]),
                "--root", root.path, "--screenshots", scratch.path, "--logs", scratch.path, "--chromium", chromium,
                "--rollout-proposal", String(proposal),
            ])
            try #require(result.status == 0, "web_client.py failed: \(result.standardError)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])

            // 1-2. Preflight refused while no origin is listed, allowed once the page's origin is.
            #expect((seen["unlisted_post"] as? String)?.hasPrefix("failed") == true, "\(seen["unlisted_post"] ?? "")")
            #expect((seen["unlisted_cors_errors"] as? [String])?.contains("PreflightMissingAllowOriginHeader") == true)
            #expect((seen["status_unlisted"] as? String)?.hasPrefix("No served menus") == true)
            #expect(seen["listed_post"] as? String == "status 200")
            let layout = try #require(seen["layout"] as? [String: Any])
            #expect(layout["menuVersion"] as? String == "2026.11.1" && layout["fromCache"] as? Bool == false)
            #expect(seen["submenu_items"] as? [String] == ["copy_link@8", "print@9"])
            #expect(seen["menus_statuses"] as? [Int] == [200, 304], "\(seen["menus_statuses"] ?? "")")

            // 4. While the daemon is down: the last good copy of the layout, and the journal.
            let down = try #require(seen["layout_down"] as? [String: Any])
            #expect(down["fromCache"] as? Bool == true)
            #expect(NSDictionary(dictionary: down["groups"].map { ["g": $0] } ?? [:])
                    == NSDictionary(dictionary: layout["groups"].map { ["g": $0] } ?? [:]))
            #expect((seen["status_down"] as? String)?.contains("last menus it served") == true)
            #expect(seen["queued_after_reload"] as? Int == 200)
            #expect(seen["spilled_at_pagehide"] as? Bool == true)
            #expect(seen["queued_down"] as? Int == 501)
            #expect((seen["metrics_after"] as? [String: Any])?["queued"] as? Int == 0)
            // Sent again to a daemon taking 100 events per request: 413, split, all acknowledged.
            let recovery = try #require(seen["recovery_requests"] as? [[Any]])
            #expect(recovery.contains { $0.first as? Int == 500 && $0.last as? Int == 413 }, "\(recovery)")
            #expect(recovery.filter { $0.last as? Int == 200 }.reduce(0) { $0 + ($1.first as? Int ?? 0) } == 501, "\(recovery)")

            // 6. Retry-After: after the 429, one request only, no sooner than it said.
            let requests = try #require(seen["retry_requests"] as? [[String: Any]])
            let refused = try #require(requests.firstIndex { $0["status"] as? Int == 429 }, "no 429 in \(requests)")
            let after = requests[(refused + 1)...]
            #expect(after.count == 1 && after.first?["status"] as? Int == 200, "\(requests)")
            let wait = try #require(Double(requests[refused]["retryAfter"] as? String ?? ""))
            let gap = (after.first?["at"] as? Double ?? 0) - (requests[refused]["at"] as? Double ?? 0)
            #expect(gap >= wait * 1000, "the retry came \(gap) ms after a Retry-After of \(wait) s")

            // 7. The arm of a rollout and the hashed user, against hashlib's.
            #expect(seen["rollout_cases"] as? Int == 320)
            #expect((seen["rollout_mismatches"] as? [Any])?.isEmpty == true, "\(seen["rollout_mismatches"] ?? "")")
            #expect((1..<320).contains(seen["rollout_in_arm"] as? Int ?? 0))
            #expect(seen["user_hash"] as? String == seen["user_hash_expected"] as? String)
            #expect((seen["page_errors"] as? [Any])?.isEmpty == true, "\(seen["page_errors"] ?? "")")

            // 8. A rollout the daemon serves: each person's arm as hashlib computes it from the served
            // salt and the person's hashed id, with that arm's layout and menu version.
            let people = try #require(seen["rollout_live"] as? [[String: Any]])
            #expect(people.count == 16)
            for person in people {
                let inArm = person["expected"] as? Bool == true
                #expect(person["hashed"] as? Bool == true)
                #expect(person["arm"] as? String == (inArm ? "rollout" : "current"), "\(person)")
                #expect(person["menu_version"] as? String == (inArm ? person["rollout_menu_version"] as? String : "2026.11.1"),
                        "\(person)")
                #expect(person["first"] as? String == (inArm ? "forward" : "reply"), "\(person)")
            }

            // Every pick and dismissal the page recorded is stored exactly once, as recorded.
            let recorded = try #require(seen["recorded"] as? [[String: Any]])
            #expect(recorded.count >= 500 + 3 + 2)
            let rows = try schema.connect().query("""
                SELECT e.event_id::text, t.name, c.name, e.position, x.menu_version, x.trigger, e.latency_ms, x.platform
                FROM events e JOIN apps a ON a.app_id = e.app_id AND a.name = 'mail'
                JOIN element_types t ON t.app_id = e.app_id AND t.element_type_id = e.element_type_id
                LEFT JOIN commands c ON c.app_id = e.app_id AND c.command_id = e.command_id
                LEFT JOIN contexts x ON x.app_id = e.app_id AND x.context_id = e.context_id
                """)
            var stored: [String: Stored] = [:]
            var copies: [String: Int] = [:]
            for row in rows {
                let id: String = try row.decode(at: 0)
                copies[id, default: 0] += 1
                let position: Int16? = try row.decode(at: 3)
                let latency: Int32? = try row.decode(at: 6)
                stored[id] = Stored(elementType: try row.decode(at: 1), command: try row.decode(at: 2),
                                    position: position.map { Int($0) }, menuVersion: try row.decode(at: 4),
                                    trigger: try row.decode(at: 5), latencyMs: latency.map { Int($0) },
                                    platform: try row.decode(at: 7))
            }
            #expect(copies.values.allSatisfy { $0 == 1 }, "stored more than once: \(copies.filter { $0.value > 1 }.keys)")
            #expect(Set(stored.keys) == Set(recorded.compactMap { $0["id"] as? String }),
                    "stored \(stored.count) events for \(recorded.count) recorded")
            var mismatches: [String] = []
            for event in recorded {
                let id = event["id"] as? String ?? ""
                let expected = Stored(elementType: event["elementType"] as? String ?? "", command: event["command"] as? String,
                                      position: event["position"] as? Int, menuVersion: event["menuVersion"] as? String ?? "",
                                      trigger: "right_click", latencyMs: event["latencyMs"] as? Int, platform: "web")
                if let row = stored[id], row != expected { mismatches.append("\(id): stored \(row), recorded \(expected)") }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        }
    }
}

/// An event as stored, with the names of its element type and command and its context's fields.
private struct Stored: Equatable {
    var elementType: String
    var command: String?
    var position: Int?
    var menuVersion: String
    var trigger: String
    var latencyMs: Int?
    var platform: String
}
