import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// The review page (`GET /admin`) in real headless Chromium against the real daemon, driven over
/// the DevTools protocol by `Tests/browser/review_page.py`: a reviewer signs in with an admin token
/// (an app's write key is refused on the page), opens the proposal, sees its diff and charts,
/// accepts it with a note, and sees who decided; `GET /v1/menus` then serves the new layout.
@Suite(TestDatabase.enabled) struct ReviewPageBrowserTests {
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func reviewerAcceptsAProposalInTheBrowser() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (scripts/deps installs it)")
        try Daemon.with(prefix: "admin_page") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "dana", appName: nil).token
            let before = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(before.status == 200)

            let page = try daemon.client().send(method: "GET", path: "/admin")
            #expect(page.status == 200)
            #expect(page.headers["Content-Security-Policy"]?.contains("script-src 'sha256-") == true)

            let screenshot = try RepositoryPaths.root().appendingPathComponent(".menurank/review-page.png").path
            let script = try RepositoryPaths.root().appendingPathComponent("Tests/browser/review_page.py").path
            let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                "python3", script, "--url", "http://127.0.0.1:\(daemon.port)", "--token", token,
                "--proposal", String(id), "--note", "fewer items to scan", "--wrong-token", daemon.alpha.writeKey,
                "--screenshot", screenshot, "--chromium", chromium,
            ])
            try #require(result.status == 0, "review_page.py failed: \(result.standardError)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect((seen["wrong_token_error"] as? String)?.contains("write or read key") == true, "\(seen)")
            #expect(seen["who"] as? String == "Signed in as dana (all apps)")
            #expect(seen["listed"] as? [String] == [String(id)])
            #expect(seen["title"] as? String == "Proposal #\(id): alpha mail.message")
            #expect((seen["diff"] as? String)?.contains("Reply") == true, "\(seen)")
            #expect((seen["served_after_accept"] as? String)?.contains("\"mail.message\"") == true)
            #expect((seen["chart_bars"] as? Int ?? 0) > 0, "\(seen)")
            #expect(seen["status_before"] as? String == "pending")
            #expect(seen["status_after"] as? String == "accepted")
            #expect(seen["decided_by"] as? String == "token:dana")
            #expect(seen["note"] as? String == "fewer items to scan")
            #expect(seen["decide_hidden"] as? Bool == true)

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
