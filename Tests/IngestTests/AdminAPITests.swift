import CivilTime
import Foundation
import HTTP
import Postgres
import Storage
import TestSupport
import Testing

/// The admin API of the real daemon over real HTTP: authorization as hostile input (app keys,
/// unknown, revoked and out-of-scope tokens, broken ids and bodies: 401/403/404/400/409, never a
/// 500, and nothing changes), and a decision recorded with who, when and the note.
@Suite(TestDatabase.enabled) struct AdminAPITests {
    func request(_ daemon: Daemon, _ method: String, _ path: String, token: String?, body: String? = nil) throws -> Reply {
        var headers: HTTPHeaders = [:]
        if let token { headers.set("Authorization", "Bearer \(token)") }
        if body != nil { headers.set("Content-Type", "application/json") }
        return Reply(try daemon.client().send(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
    }

    func status(_ daemon: Daemon, proposal id: Int64) throws -> String {
        try daemon.schema.connect().query("SELECT status FROM proposals WHERE proposal_id = \(id)")[0].decode(at: 0)
    }

    @Test func hostileRequestsAreRefusedAndChangeNothing() throws {
        try Daemon.with(prefix: "admin_authz") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let tokens = TokenStore(pool: daemon.pool)
            let alice = try tokens.create(name: "alice", appName: nil).token
            let bob = try tokens.create(name: "bob", appName: "beta").token
            let carol = try tokens.create(name: "carol", appName: "alpha").token
            _ = try tokens.revoke("carol")
            let accept = #"{"decision":"accept","note":"ship it"}"#
            let path = "/v1/admin/proposals/\(id)"

            // Credentials that are not a valid admin token for alpha: every route refuses them.
            let refused: [(token: String?, status: Int, code: String)] = [
                (nil, 401, "missing_token"),
                (daemon.alpha.writeKey, 401, "wrong_key_kind"),
                (daemon.alpha.readKey, 401, "wrong_key_kind"),
                ("mrk_a_" + String(repeating: "x", count: 32), 401, "unknown_token"),
                ("not a token at all", 401, "unknown_token"),
                (carol, 403, "revoked_token"),
                // Issue 32: another app's proposal is "missing" for a scoped token, never "forbidden".
                (bob, 404, "unknown_proposal"),
            ]
            for (token, expected, code) in refused {
                for (method, route, body) in [("GET", path, nil), ("POST", path, accept),
                                              ("GET", "/v1/admin/reports/\(id)", nil)] as [(String, String, String?)] {
                    let reply = try request(daemon, method, route, token: token, body: body)
                    #expect(reply.status == expected, "\(method) \(route) with \(code): \(reply.text)")
                    #expect(reply.error == code, "\(method) \(route): \(reply.text)")
                }
            }
            let wrongScheme = Reply(try daemon.client().send(method: "GET", path: path,
                                                             headers: ["Authorization": "Basic \(alice)"]))
            #expect(wrongScheme.status == 401)
            // The session and the list: app keys and revoked tokens refused, a scoped token sees only its app.
            #expect(try request(daemon, "GET", "/v1/admin/session", token: daemon.alpha.writeKey).status == 401)
            #expect(try request(daemon, "GET", "/v1/admin/proposals", token: carol).status == 403)
            // Nothing tells another app's ids and names from missing ones: the same status, code and message.
            let othersApp = try request(daemon, "GET", "/v1/admin/proposals?app=alpha", token: bob)
            let noApp = try request(daemon, "GET", "/v1/admin/proposals?app=alphb", token: bob)
            #expect(othersApp.status == 404 && othersApp.error == "unknown_app" && noApp.error == "unknown_app")
            #expect(othersApp.json["message"] as? String == "no app named alpha", "\(othersApp.text)")
            #expect(noApp.json["message"] as? String == "no app named alphb")
            let othersProposal = try request(daemon, "GET", path, token: bob)
            let noProposal = try request(daemon, "GET", "/v1/admin/proposals/\(id + 1000)", token: bob)
            #expect(othersProposal.json["message"] as? String == "no proposal \(id)", "\(othersProposal.text)")
            #expect(noProposal.json["message"] as? String == "no proposal \(id + 1000)")
            #expect(Set(othersProposal.headers.fields.map { $0.name.lowercased() }) == Set(noProposal.headers.fields.map { $0.name.lowercased() }))
            let bobsList = try request(daemon, "GET", "/v1/admin/proposals", token: bob)
            #expect(bobsList.status == 200)
            #expect((bobsList.json["proposals"] as? [Any])?.isEmpty == true, "\(bobsList.text)")

            // An admin token is never valid for ingestion or for reading menus.
            let ingest = try daemon.post(Payload.batch([Payload.event()]), key: alice)
            #expect(ingest.status == 401, "\(ingest.text)")
            #expect(try daemon.get("/v1/menus", key: alice).status == 401)

            // Broken ids, queries and bodies from a valid token: 4xx, never 500.
            for bad in ["abc", "0", "-1", "99999999999999999999", "%00", "1%2F2", "999999"] {
                let reply = try request(daemon, "GET", "/v1/admin/proposals/\(bad)", token: alice)
                #expect(reply.status == 404, "\(bad): \(reply.text)")
                #expect(try request(daemon, "POST", "/v1/admin/proposals/\(bad)", token: alice, body: accept).status == 404)
            }
            #expect(try request(daemon, "GET", "/v1/admin/proposals?status=bogus", token: alice).status == 400)
            #expect(try request(daemon, "GET", "/v1/admin/proposals?limit=0", token: alice).status == 400)
            #expect(try request(daemon, "GET", "/v1/admin/proposals?app=nobody", token: alice).status == 404)
            let bodies = [
                "", "{", "[]", "null", #"{"decision":"maybe"}"#, #"{"decision":1}"#, #"{"note":"x"}"#,
                #"{"decision":"accept","note":7}"#, #"{"decision":"accept","note":"a\u0000b"}"#,
                #"{"decision":"accept","note":"a\u202Eb"}"#, #"{"decision":"accept","note":"a\u009B2J"}"#,
                #"{"decision":"reject","note":"a\u2066b"}"#, "{\"decision\":\"reject\",\"note\":\"a\u{200F}b\"}",
                "{\"decision\":\"accept\",\"note\":\"\(String(repeating: "n", count: 2001))\"}",
                String(repeating: "[", count: 100),
            ]
            for body in bodies {
                let reply = try request(daemon, "POST", path, token: alice, body: body)
                #expect(reply.status == 400, "\(body.prefix(40)): \(reply.text)")
                #expect(["invalid_json", "invalid_decision"].contains(reply.error ?? ""), "\(reply.text)")
            }
            #expect(try status(daemon, proposal: id) == "pending")
            let log = daemon.logLines.all.joined(separator: "\n")
            #expect(!log.contains("status=500"), "a 500 was served")

            // A valid decision: recorded with who, when and the note; a second one conflicts.
            let decided = try request(daemon, "POST", path, token: alice, body: accept)
            #expect(decided.status == 200, "\(decided.text)")
            #expect(decided.json["status"] as? String == "accepted")
            #expect(decided.json["decided_by"] as? String == "token:alice")
            #expect(decided.json["note"] as? String == "ship it")
            #expect(decided.json["decided"] is String)
            let again = try request(daemon, "POST", path, token: alice, body: #"{"decision":"reject"}"#)
            #expect(again.status == 409, "\(again.text)")
            #expect(again.error == "proposal_conflict")
            let shown = try request(daemon, "GET", path, token: alice)
            #expect(shown.json["decided_by"] as? String == "token:alice")
            #expect(shown.json["served_after_accept"] == nil)

            // The command line shows who decided.
            let cli = try ReviewFixture.menurank(daemon, ["proposals", "show", String(id)])
            #expect(cli.status == 0, "\(cli.standardError)")
            #expect(cli.standardOutput.contains("by token:alice"), "\(cli.standardOutput)")
            #expect(cli.standardOutput.contains("note: ship it"))
            let json = try ReviewFixture.menurank(daemon, ["proposals", "show", String(id), "--format", "json"])
            #expect(json.standardOutput.contains(#""decided_by":"token:alice""#), "\(json.standardOutput.prefix(400))")
        }
    }

    /// A decision through the daemon is stamped by the daemon's clock (`IngestConfiguration.clock`,
    /// handed to the review stores), not the system's: fixed an hour ahead, `decided` is that instant.
    @Test func aDecisionIsStampedByTheDaemonsClock() throws {
        let second = WallClock.system.now().microsecondsSince1970 / 1_000_000
        let fixed = UTCTimestamp(microsecondsSince1970: (second + 3600) * 1_000_000)
        try Daemon.with(prefix: "admin_clock", configure: { $0.clock = .fixed(fixed) }) { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "reviewer@example.com", appName: "alpha").token
            let decided = try request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                      body: #"{"decision":"reject","note":"not now"}"#)
            #expect(decided.status == 200, "\(decided.text)")
            #expect(decided.json["decided"] as? String == fixed.civil.rfc3339(fractionDigits: 0))
        }
    }

    @Test func showListsAndPreviewsWhatWillBeServed() throws {
        try Daemon.with(prefix: "admin_show") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "reviewer@example.com", appName: "alpha").token
            let session = try request(daemon, "GET", "/v1/admin/session", token: token)
            #expect(session.json["name"] as? String == "reviewer@example.com")
            #expect(session.json["app"] as? String == "alpha")

            let list = try request(daemon, "GET", "/v1/admin/proposals?status=pending", token: token)
            let items = try #require(list.json["proposals"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? Int } == [Int(id)])
            #expect((items.first?["changed_items"] as? Int ?? 0) > 0)
            #expect((try request(daemon, "GET", "/v1/admin/proposals?status=accepted", token: token)
                .json["proposals"] as? [Any])?.isEmpty == true)

            let shown = try request(daemon, "GET", "/v1/admin/proposals/\(id)", token: token)
            #expect(shown.status == 200)
            #expect((shown.json["markdown"] as? String)?.contains("mail.message") == true)
            #expect((shown.json["diff"] as? String)?.contains("Reply") == true)
            let proposal = try #require(shown.json["proposal"] as? [String: Any])
            let served = try #require(shown.json["served_after_accept"] as? [String: Any])
            // The preview is exactly what GET /v1/menus serves after the accept.
            let report = try daemon.client().send(method: "GET", path: "/v1/admin/reports/\(id)",
                                                  headers: ["Authorization": "Bearer \(token)"])
            #expect(report.status == 200)
            #expect(report.headers["Content-Type"]?.hasPrefix("text/html") == true)
            #expect(report.text.contains("<svg"))
            let menus = ((served["menus"] as? [String: Any])?["mail.message"] as? [String: Any])?["groups"]
            #expect(try JSONSerialization.data(withJSONObject: menus ?? [], options: .sortedKeys)
                == (try JSONSerialization.data(withJSONObject: (proposal["proposed"] as? [String: Any])?["groups"] ?? [],
                                               options: .sortedKeys)))

            let before = try daemon.get("/v1/menus", key: daemon.alpha.readKey)
            let dryRun = try ReviewFixture.menurank(daemon, ["proposals", "accept", String(id), "--dry-run"])
            #expect(dryRun.status == 0, "\(dryRun.standardError)")
            #expect(try status(daemon, proposal: id) == "pending")
            #expect(try daemon.get("/v1/menus", key: daemon.alpha.readKey).text == before.text)
            let decided = try request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                      body: #"{"decision":"accept"}"#)
            #expect(decided.status == 200)
            let after = try daemon.get("/v1/menus", key: daemon.alpha.readKey)
            #expect(after.text != before.text)
            let dryRunObject = try JSONSerialization.jsonObject(with: Data(dryRun.standardOutput.utf8))
            #expect(try JSONSerialization.data(withJSONObject: dryRunObject, options: .sortedKeys)
                == (try JSONSerialization.data(withJSONObject: after.json, options: .sortedKeys)),
                "dry run: \(dryRun.standardOutput)\nserved: \(after.text)")
            #expect(try JSONSerialization.data(withJSONObject: served, options: .sortedKeys)
                == (try JSONSerialization.data(withJSONObject: after.json, options: .sortedKeys)))
        }
    }
}

/// The admin API's `"step"` (issue 27): a reviewer accepts another step of the proposal's ladder
/// than the one filed, and `GET /v1/menus` serves that step's layout; a step that is not one of the
/// ladder's, or that comes with reject, `keep_pruned` or `rollout`, is refused and changes nothing.
@Suite(TestDatabase.enabled) struct AdminStepDecisionTests {
    @Test func acceptingAnotherStepServesItsLayout() throws {
        try Daemon.with(prefix: "admin_step") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "dana", appName: "alpha").token
            let api = AdminAPITests()
            let path = "/v1/admin/proposals/\(id)"
            let shown = try api.request(daemon, "GET", path, token: token)
            #expect(shown.status == 200, "\(shown.text)")
            let proposal = try #require(shown.json["proposal"] as? [String: Any])
            let ladder = try #require(shown.json["ladder"] as? [[String: Any]], "\(shown.text.prefix(600))")
            let filed = try #require(shown.json["step"] as? String)
            let promote = try #require(ladder.first { $0["step"] as? String == "promote" })
            #expect(promote["offered"] as? Bool == true)
            #expect(filed != "promote", "the mail example files \(filed); the test accepts a step that is not the filed one")
            let wanted = try #require(promote["groups"] as? [[Any]])
            let before = try daemon.get("/v1/menus", key: daemon.alpha.readKey).text

            for body in [#"{"decision":"accept","step":"sideways"}"#, #"{"decision":"accept","step":3}"#,
                         #"{"decision":"reject","step":"promote"}"#,
                         #"{"decision":"accept","step":"promote","keep_pruned":"Print & Export"}"#,
                         #"{"decision":"accept","step":"promote","rollout":0.2}"#] {
                let reply = try api.request(daemon, "POST", path, token: token, body: body)
                #expect(reply.status == 400, "\(body): \(reply.text)")
                #expect(reply.error == "invalid_decision", "\(body): \(reply.text)")
            }
            #expect(try api.status(daemon, proposal: id) == "pending")
            #expect(try daemon.get("/v1/menus", key: daemon.alpha.readKey).text == before)

            let accepted = try api.request(daemon, "POST", path, token: token,
                                           body: #"{"decision":"accept","step":"promote","note":"the small step first"}"#)
            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(accepted.json["status"] as? String == "accepted")
            #expect(accepted.json["decided_by"] as? String == "token:dana")
            let served = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            let groups = try #require(((served.json["menus"] as? [String: Any])?["mail.message"] as? [String: Any])?["groups"])
            #expect(try JSONSerialization.data(withJSONObject: groups, options: .sortedKeys)
                == (try JSONSerialization.data(withJSONObject: wanted, options: .sortedKeys)), "\(served.text)")
            let filedGroups = try #require((proposal["proposed"] as? [String: Any])?["groups"])
            #expect(try JSONSerialization.data(withJSONObject: groups, options: .sortedKeys)
                != (try JSONSerialization.data(withJSONObject: filedGroups, options: .sortedKeys)))
            let log = daemon.logLines.all.joined(separator: "\n")
            #expect(!log.contains("status=500"), "a 500 was served")
        }
    }
}

/// `--keep-pruned` / `keep_pruned`: the flagged commands stay in the served menu, in a titled submenu.
@Suite(TestDatabase.enabled) struct KeepPrunedAcceptTests {
    @Test func acceptingWithKeepPrunedServesThePrunedCommandsInASubmenu() throws {
        try Daemon.with(prefix: "keep_pruned") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "erin", appName: nil).token
            let generic = try ReviewFixture.menurank(daemon, ["proposals", "accept", String(id), "--keep-pruned", "More"])
            #expect(generic.status == 64, "\(generic.standardError)")
            let preview = try ReviewFixture.menurank(daemon, ["proposals", "accept", String(id), "--dry-run",
                                                              "--keep-pruned", "Print & Export"])
            #expect(preview.status == 0, "\(preview.standardError)")
            #expect(preview.standardOutput.contains("\"submenu\": \"Print & Export\""), "\(preview.standardOutput)")

            let badTitle = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                       body: #"{"decision":"accept","keep_pruned":"Other"}"#)
            #expect(badTitle.status == 400, "\(badTitle.text)")
            let withReject = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                         body: #"{"decision":"reject","keep_pruned":"Print"}"#)
            #expect(withReject.status == 400)
            let accepted = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                       body: #"{"decision":"accept","keep_pruned":"Print & Export"}"#)
            #expect(accepted.status == 200, "\(accepted.text)")
            let served = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            let groups = try #require(((served.json["menus"] as? [String: Any])?["mail.message"] as? [String: Any])?["groups"]
                as? [[Any]])
            let last = try #require(groups.last)
            #expect(last.count == 3, "\(served.text)")
            #expect((last[1] as? [String: Any])?["submenu"] as? String == "Print & Export")
            #expect((last[1] as? [String: Any])?["items"] as? [String] == ["print"])
            #expect(last[2] as? String == "delete")
            #expect(served.text.contains("\"print\":{\"title\":\"Print\"}"), "print keeps its title: \(served.text)")
            // The dry run showed exactly what GET /v1/menus now serves.
            let all = try daemon.get("/v1/menus", key: daemon.alpha.readKey)
            let previewJSON = try JSONSerialization.jsonObject(with: Data(preview.standardOutput.utf8))
            #expect(try JSONSerialization.data(withJSONObject: previewJSON, options: .sortedKeys)
                == (try JSONSerialization.data(withJSONObject: all.json, options: .sortedKeys)))
        }
    }
}
