import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// The review page (`GET /admin`) in real headless Chromium against the real daemon, driven over
/// the DevTools protocol by `Tests/browser/review_page.py`: a reviewer signs in with an admin token
/// (an app's write key is refused on the page), reads the usage dashboard (element types with their
/// daily trend, one element type's ranking as a chart with a legend and a table, filtered by
/// platform), opens the proposal, accepts it after confirming (a cancel first changes nothing),
/// and sees who decided; `GET /v1/menus` then serves the new layout. At a phone's width the page
/// does not scroll sideways, and no step logs an error to the console.
@Suite(TestDatabase.enabled) struct ReviewPageBrowserTests {
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func reviewerReadsUsageAndAcceptsAProposalInTheBrowser() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (scripts/deps installs it)")
        try Daemon.with(prefix: "admin_page") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            // Events from iOS that arrive after the night's run: the dashboard counts them at once.
            let ios = (0..<30).map { i in
                Payload.event(command: i % 3 == 0 ? "archive" : "reply", extra: "\"user\":\"phone-\(i % 7)\"")
            }
            let sent = try daemon.post(Payload.batch(ios, context: #"{"platform": "iOS 18.1", "app_version": "5.0"}"#))
            try #require(sent.accepted == 30, "\(sent.text)")
            let token = try TokenStore(pool: daemon.pool).create(name: "dana", appName: nil).token
            let before = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(before.status == 200)

            let page = try daemon.client().send(method: "GET", path: "/admin")
            #expect(page.status == 200)
            let policy = try #require(page.headers["Content-Security-Policy"])
            #expect(policy.contains("script-src 'sha256-") && !policy.contains("unsafe-eval") && !policy.contains("script-src 'unsafe"))
            #expect(page.headers["Set-Cookie"] == nil)

            let shots = try RepositoryPaths.root().appendingPathComponent(".menurank/screenshots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            let script = try RepositoryPaths.root().appendingPathComponent("Tests/browser/review_page.py").path
            let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                "python3", script, "--url", "http://127.0.0.1:\(daemon.port)", "--token", token,
                "--proposal", String(id), "--note", "fewer items to scan", "--wrong-token", daemon.alpha.writeKey,
                "--platform", "ios", "--from-day", UsageAPITests.day(offset: -29), "--screenshots", shots.path, "--chromium", chromium,
            ])
            try #require(result.status == 0, "review_page.py failed: \(result.standardError)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect((seen["wrong_token_error"] as? String)?.contains("write or read key") == true, "\(seen)")
            #expect(seen["who"] as? String == "Signed in as dana (all apps)")
            #expect(seen["storage_token"] as? Bool == true)
            #expect(seen["cookies"] as? String == "")

            // The dashboard, its window from the fixture's first day to today: DESIGN.md's 10,140
            // selections plus the 30 iOS replies and archives sent after the night's run, counted
            // before the page was answered.
            let rows = try #require(seen["dashboard_rows"] as? [[String]], "\(seen)")
            #expect(rows.count == 1)
            #expect(rows.first?.prefix(2) == ["mail.message", "10,170"], "\(rows)")
            #expect(seen["sparklines"] as? Int == 1)
            #expect(seen["element_title"] as? String == "alpha mail.message")
            let ranking = try #require(seen["ranking"] as? [[String]])
            #expect(ranking.first?.prefix(2) == ["reply", "4,120"], "\(ranking)")
            #expect((seen["chart_bars"] as? Int ?? 0) >= 2 * ranking.count, "\(seen)")
            #expect((seen["legend"] as? String)?.contains("95% interval") == true)
            let filtered = try #require(seen["filtered_ranking"] as? [[String]])
            #expect(filtered.map(\.first) == ["reply", "archive"], "\(filtered)")
            #expect(filtered.map { $0[1] } == ["20", "10"], "\(filtered)")

            #expect(seen["listed"] as? [String] == [String(id)])
            #expect(seen["title"] as? String == "Proposal #\(id): alpha mail.message")
            #expect((seen["diff"] as? String)?.contains("Reply") == true, "\(seen)")
            #expect((seen["served_after_accept"] as? String)?.contains("\"mail.message\"") == true)
            #expect(seen["served_collapsed"] as? Bool == true)
            #expect((seen["chart_bars_report"] as? Int ?? 0) > 0, "\(seen)")
            #expect(seen["status_before"] as? String == "pending")
            #expect((seen["confirm_text"] as? String)?.contains("Accept proposal #\(id)") == true, "\(seen)")
            #expect(seen["status_after_cancel"] as? String == "pending")
            #expect(seen["status_after"] as? String == "accepted")
            #expect(seen["decided_by"] as? String == "token:dana")
            #expect(seen["note"] as? String == "fewer items to scan")
            #expect(seen["decide_hidden"] as? Bool == true)
            #expect(seen["phone_overflow_dashboard"] as? Int == 0, "\(seen)")
            #expect(seen["phone_overflow_proposal"] as? Int == 0, "\(seen)")
            #expect(seen["console_problems"] as? [String] == [], "\(seen)")

            let after = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(after.status == 200)
            #expect(after.text != before.text)
            #expect(after.headers["ETag"] != before.headers["ETag"])
            let row = try daemon.schema.connect().query(
                "SELECT status, decided_by, note, decided_at IS NOT NULL FROM proposals WHERE proposal_id = \(id)")[0]
            #expect(try row.decode(String.self, at: 0) == "accepted")
            #expect(try row.decode(String.self, at: 1) == "token:dana")
            #expect(try row.decode(String.self, at: 2) == "fewer items to scan")
            #expect(try row.decode(Bool.self, at: 3))
        }
    }
}
