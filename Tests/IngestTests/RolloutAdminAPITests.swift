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
            // A second start conflicts; the CLI stops it and the member goes away.
            let again = try AdminAPITests().request(daemon, "POST", path, token: token, body: #"{"decision":"accept","rollout":0.3}"#)
            #expect(again.status == 409)
            let stop = try ReviewFixture.menurank(daemon, ["rollouts", "stop", "\(rollout["id"] as? Int ?? 0)"])
            #expect(stop.status == 0, "\(stop.standardError)")
            let stopped = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(!stopped.text.contains("\"rollout\"") && stopped.headers["ETag"] == before.headers["ETag"])
        }
    }
}
