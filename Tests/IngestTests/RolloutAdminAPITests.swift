import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// A rollout started through the admin API (`"rollout"` on an accept) and what GET /v1/menus then
/// serves: the current layout as before, the rollout member beside it, a new ETag.
@Suite(TestDatabase.enabled) struct RolloutAdminAPITests {
    @Test func anAcceptWithARolloutServesBothLayouts() throws {
        try Daemon.with(prefix: "rollout_admin") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "erin", appName: nil).token
            let before = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            let path = "/v1/admin/proposals/\(id)"
            for body in [#"{"decision":"accept","rollout":1.5}"#, #"{"decision":"accept","rollout":0}"#,
                         #"{"decision":"accept","rollout":"20"}"#, #"{"decision":"reject","rollout":0.2}"#,
                         #"{"decision":"accept","rollout":true}"#]
            {
                let reply = try AdminAPITests().request(daemon, "POST", path, token: token, body: body)
                #expect(reply.status == 400 && reply.error == "invalid_decision", "\(body): \(reply.text)")
            }
            #expect(try AdminAPITests().status(daemon, proposal: id) == "pending")
            let started = try AdminAPITests().request(daemon, "POST", path, token: token,
                                                      body: #"{"decision":"accept","rollout":"20%","note":"try"}"#)
            #expect(started.status == 200, "\(started.text)")
            let rollout = try #require(started.json["rollout"] as? [String: Any])
            #expect(rollout["share"] as? Double == 0.2 && started.json["status"] as? String == "accepted")

            let after = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(after.headers["ETag"] != before.headers["ETag"])
            let oldMenu = try #require((before.json["menus"] as? [String: Any])?["mail.message"] as? [String: Any])
            let menu = try #require((after.json["menus"] as? [String: Any])?["mail.message"] as? [String: Any])
            // An old client reads the same current layout and version.
            #expect(menu["menu_version"] as? String == oldMenu["menu_version"] as? String)
            #expect((menu["groups"] as? [[Any]])?.count == (oldMenu["groups"] as? [[Any]])?.count)
            let member = try #require(menu["rollout"] as? [String: Any])
            #expect(member["id"] as? Int == rollout["id"] as? Int && member["share"] as? Double == 0.2)
            #expect((member["salt"] as? String)?.count == 32 && member["menu_version"] as? String == rollout["menu_version"] as? String)
            #expect(member["groups"] is [[Any]])
            // The rollout in the admin API: listed, shown with its decisions and looks, and as a page.
            let rolloutID = rollout["id"] as? Int ?? 0
            let listed = try AdminAPITests().request(daemon, "GET", "/v1/admin/rollouts?app=alpha&status=running", token: token)
            #expect(listed.status == 200 && (listed.json["rollouts"] as? [[String: Any]])?.first?["id"] as? Int == rolloutID,
                    "\(listed.text)")
            #expect(try AdminAPITests().request(daemon, "GET", "/v1/admin/rollouts?status=maybe", token: token).status == 400)
            let shown = try AdminAPITests().request(daemon, "GET", "/v1/admin/rollouts/\(rolloutID)", token: token)
            #expect(shown.status == 200 && shown.json["verdict"] as? String == "no difference yet", "\(shown.text)")
            #expect((shown.json["decisions"] as? [[String: Any]])?.first?["by"] as? String == "token:erin")
            #expect(shown.json["looks"] is [Any])
            let page = try AdminAPITests().request(daemon, "GET", "/v1/admin/rollout-reports/\(rolloutID)", token: token)
            #expect(page.status == 200 && page.text.contains("Rollout #\(rolloutID)") && page.headers["Content-Security-Policy"] != nil)
            for path in ["/v1/admin/rollouts/999", "/v1/admin/rollouts/x", "/v1/admin/rollout-reports/0"] {
                #expect(try AdminAPITests().request(daemon, "GET", path, token: token).status == 404, "\(path)")
            }
            #expect(try AdminAPITests().request(daemon, "GET", "/v1/admin/rollouts", token: nil).status == 401)
            let scoped = try TokenStore(pool: daemon.pool).create(name: "bo", appName: "beta").token
            // Another app's rollout is "missing" for a scoped token (issue 32), with a missing one's message.
            let others = try AdminAPITests().request(daemon, "GET", "/v1/admin/rollouts/\(rolloutID)", token: scoped)
            #expect(others.status == 404 && others.error == "unknown_rollout" && others.json["message"] as? String == "no rollout \(rolloutID)")
            #expect(try AdminAPITests().request(daemon, "GET", "/v1/admin/rollout-reports/\(rolloutID)", token: scoped).status == 404)
            #expect((try AdminAPITests().request(daemon, "GET", "/v1/admin/rollouts", token: scoped).json["rollouts"]
                as? [Any])?.isEmpty == true)

            // A second start conflicts; the CLI stops it and the member goes away.
            let again = try AdminAPITests().request(daemon, "POST", path, token: token, body: #"{"decision":"accept","rollout":0.3}"#)
            #expect(again.status == 409)
            let stop = try ReviewFixture.menurank(daemon, ["rollouts", "stop", "\(rollout["id"] as? Int ?? 0)"])
            #expect(stop.status == 0, "\(stop.standardError)")
            let stopped = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(!stopped.text.contains("\"rollout\"") && stopped.headers["ETag"] == before.headers["ETag"])
        }
    }

    /// A plain accept of another proposal of an element type in a rollout is refused, over the admin
    /// API (409, the rollout named with the way out) and the command line (accept and its dry run),
    /// and changes nothing; once the rollout is stopped the same accept is served.
    @Test func aPlainAcceptIsRefusedWhileARolloutRuns() throws {
        try Daemon.with(prefix: "rollout_guard") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "erin", appName: nil).token
            let started = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                      body: #"{"decision":"accept","rollout":"20%"}"#)
            let rolloutID = try #require((started.json["rollout"] as? [String: Any])?["id"] as? Int, "\(started.text)")
            // A second proposal of mail.message, made from the same current layout.
            let other: Int64 = try daemon.schema.connect().query("""
                INSERT INTO proposals (app_id, element_type, base_layout_version, window_from, window_to, current_layout,
                                       proposed_layout, evidence)
                SELECT app_id, element_type, base_layout_version, window_from, window_to, current_layout, proposed_layout, evidence
                FROM proposals WHERE proposal_id = \(id) RETURNING proposal_id
                """)[0].decode(at: 0)
            let before = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            let refused = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(other)", token: token,
                                                      body: #"{"decision":"accept","note":"plain"}"#)
            #expect(refused.status == 409 && refused.error == "proposal_conflict", "\(refused.text)")
            let message = refused.json["message"] as? String ?? ""
            #expect(message.contains("has rollout \(rolloutID) running") && message.contains("menurank rollouts promote \(rolloutID)")
                && message.contains("menurank rollouts stop \(rolloutID)"), "\(message)")
            for arguments in [["proposals", "accept", "\(other)"], ["proposals", "accept", "\(other)", "--dry-run"]] {
                let run = try ReviewFixture.menurank(daemon, arguments)
                #expect(run.status == 1 && run.standardError.contains("has rollout \(rolloutID) running"),
                        "\(arguments): \(run.status) \(run.standardError)")
            }
            #expect(try AdminAPITests().status(daemon, proposal: other) == "pending")
            let after = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(after.headers["ETag"] == before.headers["ETag"])
            #expect(try ReviewFixture.menurank(daemon, ["rollouts", "stop", "\(rolloutID)", "--note", "plain accept"]).status == 0)
            let accepted = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(other)", token: token,
                                                       body: #"{"decision":"accept"}"#)
            #expect(accepted.status == 200 && accepted.json["status"] as? String == "accepted", "\(accepted.text)")
        }
    }

    /// The decisions on a rollout through the admin API (`POST /v1/admin/rollouts/ID`): a bad body is
    /// a 400 that changes nothing, another app's rollout is missing for a scoped token, a share
    /// that does not widen and a decision on an ended rollout are 409s with the reason, and each
    /// decision is recorded with the token's name and the note.
    @Test func aRolloutIsWidenedAndStoppedThroughTheAPI() throws {
        try Daemon.with(prefix: "rollout_decide") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "erin", appName: nil).token
            let started = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                      body: #"{"decision":"accept","rollout":"20%"}"#)
            let rolloutID = try #require((started.json["rollout"] as? [String: Any])?["id"] as? Int, "\(started.text)")
            let path = "/v1/admin/rollouts/\(rolloutID)"
            // A step goes with a plain accept only; a rollout serves the filed step.
            for body in [#"{"action":"widen"}"#, #"{"action":"set_share"}"#, #"{"action":"set_share","share":1.5}"#,
                         #"{"action":"set_share","share":"40"}"#, #"{"action":"promote","share":0.5}"#, #"[]"#, #"{"#,
                         #"{"action":"stop","note":7}"#, "{\"action\":\"stop\",\"note\":\"a\u{202E}b\"}"]
            {
                let reply = try AdminAPITests().request(daemon, "POST", path, token: token, body: body)
                #expect(reply.status == 400 && ["invalid_decision", "invalid_json"].contains(reply.error ?? ""), "\(body): \(reply.text)")
            }
            #expect(try RolloutStore().decisions(id: Int64(rolloutID), on: daemon.schema.connect()).count == 1)
            let scoped = try TokenStore(pool: daemon.pool).create(name: "bo", appName: "beta").token
            let others = try AdminAPITests().request(daemon, "POST", path, token: scoped, body: #"{"action":"stop"}"#)
            #expect(others.status == 404 && others.error == "unknown_rollout", "\(others.text)")
            #expect(try AdminAPITests().request(daemon, "POST", path, token: nil, body: #"{"action":"stop"}"#).status == 401)
            #expect(try AdminAPITests().request(daemon, "POST", "/v1/admin/rollouts/99", token: token,
                                                body: #"{"action":"stop"}"#).status == 404)

            let narrower = try AdminAPITests().request(daemon, "POST", path, token: token,
                                                       body: #"{"action":"set_share","share":"10%"}"#)
            #expect(narrower.status == 409 && narrower.error == "rollout_conflict"
                && (narrower.json["message"] as? String)?.contains("the share only grows") == true, "\(narrower.text)")
            let wider = try AdminAPITests().request(daemon, "POST", path, token: token,
                                                    body: #"{"action":"set_share","share":0.4,"note":"fine so far"}"#)
            #expect(wider.status == 200 && wider.json["share"] as? Double == 0.4 && wider.json["status"] as? String == "running",
                    "\(wider.text)")
            let served = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(served.text.contains("\"share\":0.4"), "\(served.text)")
            let stopped = try AdminAPITests().request(daemon, "POST", path, token: token, body: #"{"action":"stop","note":"slower"}"#)
            #expect(stopped.status == 200 && stopped.json["status"] as? String == "stopped", "\(stopped.text)")
            let again = try AdminAPITests().request(daemon, "POST", path, token: token, body: #"{"action":"promote"}"#)
            #expect(again.status == 409 && again.error == "rollout_conflict", "\(again.text)")
            let decisions = try RolloutStore().decisions(id: Int64(rolloutID), on: daemon.schema.connect())
            #expect(decisions.map { "\($0.action.rawValue) \($0.decidedBy ?? "-") \($0.note ?? "-")" }
                == ["start token:erin -", "share token:erin fine so far", "stop token:erin slower"], "\(decisions)")
            #expect(try AdminAPITests().status(daemon, proposal: Int64(id)) == "rejected")
            let withStep = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                       body: #"{"decision":"accept","rollout":0.2,"step":"reorder"}"#)
            #expect(withStep.status == 400 && withStep.error == "invalid_decision", "\(withStep.text)")
        }
    }

    /// `recommend --auto-rollout 10%`: the proposal the night files starts as a rollout at once, and
    /// `--notify-url` is told; a dry run starts nothing.
    @Test func theNightStartsARolloutForEachProposalItFiles() throws {
        try Daemon.with(prefix: "auto_rollout") { daemon in
            try NotifyWebhookTests.withReceiver(status: 204) { receiver, port in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("alpha-\(UUID().uuidString).json")
                try ReviewFixture.manifest.write(to: file, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: file) }
                #expect(try ReviewFixture.menurank(daemon, ["menus", "import", file.path]).status == 0)
                try ReviewFixture.insertEvents(app: daemon.alpha.app.appID, on: daemon.schema.connect())
                let base = ["recommend", "--app", "alpha", "--as-of", ReviewFixture.asOf, "--format", "json", "--auto-rollout"]
                #expect(try ReviewFixture.menurank(daemon, base + ["150%"]).status == 64)
                let dry = try ReviewFixture.menurank(daemon, base + ["10%", "--dry-run"])
                #expect(dry.status == 0 && !dry.standardError.contains("rollout #"), "\(dry.standardError)")
                let run = try ReviewFixture.menurank(daemon, base + ["10%", "--notify-url", "http://127.0.0.1:\(port)/hook"])
                #expect(run.status == 0, "\(run.standardError)")
                #expect(run.standardError.contains("rollout #1 (alpha mail.message): started"), "\(run.standardError)")
                let connection = try daemon.schema.connect()
                let rows = try connection.query("""
                    SELECT r.status || ' ' || r.share::text || ' ' || p.status || ' ' || d.decided_by
                    FROM rollouts r JOIN proposals p USING (app_id, proposal_id) JOIN rollout_decisions d USING (app_id, rollout_id)
                    """).map { try $0.decode(String.self, at: 0) }
                #expect(rows == ["running 0.1 accepted recommend"])
                let events = receiver.requests.compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any])?["event"] as? String
                }
                #expect(events.sorted() == ["proposal.filed", "rollout.started"])
                // GET /v1/menus serves it.
                let served = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
                #expect(served.text.contains("\"rollout\":{\"id\":1,"), "\(served.text)")
            }
        }
    }
}
