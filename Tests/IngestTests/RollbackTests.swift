import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// Undo of an accept, by the real binary (`menurank layouts rollback`) and by the admin API
/// (`POST /v1/admin/layouts/rollback`): the layout from before the accept is served again as a new
/// version with a menu_version of its own, recorded with who and why; a second rollback, a scoped
/// token of another app and broken bodies are refused and change nothing.
@Suite(TestDatabase.enabled) struct RollbackTests {
    static func post(_ daemon: Daemon, _ path: String, token: String, body: String) throws -> Reply {
        Reply(try daemon.client().send(method: "POST", path: path,
                                       headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                                       body: Array(body.utf8)))
    }

    static func accept(_ daemon: Daemon, token: String) throws -> (id: Int64, before: Reply) {
        let id = try ReviewFixture.pendingProposal(daemon)
        let before = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
        let accepted = try post(daemon, "/v1/admin/proposals/\(id)", token: token, body: #"{"decision":"accept"}"#)
        try #require(accepted.status == 200, "\(accepted.text)")
        return (id, before)
    }

    static func groups(_ reply: Reply) -> String {
        let menus = reply.json["menus"] as? [String: Any]
        let menu = menus?["mail.message"] as? [String: Any] ?? reply.json
        guard let groups = menu["groups"],
              let data = try? JSONSerialization.data(withJSONObject: groups, options: [.sortedKeys]) else { return "none" }
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theBinaryRollsBackAndRecordsTheOSUserWithoutUSER() throws {
        try Daemon.with(prefix: "rollback_cli") { daemon in
            let token = try TokenStore(pool: daemon.pool).create(name: "rita", appName: nil).token
            let (id, before) = try Self.accept(daemon, token: token)
            let accepted = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(Self.groups(accepted) != Self.groups(before))

            // No $USER or $LOGNAME (cron, a container): the OS user is recorded.
            let run = try ReviewFixture.menurank(daemon, ["layouts", "rollback", "mail.message", "--note", "people missed Print"],
                                                 environment: ["USER": "", "LOGNAME": ""])
            try #require(run.status == 0, "rollback: \(run.standardError)")
            #expect(run.standardOutput.contains("rolled back alpha mail.message"), "\(run.standardOutput)")
            let osUser = String(cString: getpwuid(getuid())!.pointee.pw_name)
            let after = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(Self.groups(after) == Self.groups(before))
            #expect(after.headers["ETag"] != accepted.headers["ETag"])
            let row = try daemon.schema.connect().query("""
                SELECT l.source, l.menu_version, r.decided_by, r.note, r.proposal_id, r.restored_version, r.replaced_version,
                       (SELECT menu_version FROM layouts WHERE app_id = l.app_id AND element_type = l.element_type
                        AND layout_version = r.restored_version)
                FROM layouts l JOIN layout_rollbacks r USING (app_id, element_type, layout_version)
                WHERE l.element_type = 'mail.message'
                """)
            try #require(row.count == 1)
            #expect(try row[0].decode(String.self, at: 0) == "rollback")
            #expect(try row[0].decode(String.self, at: 2) == "cli:\(osUser)")
            #expect(try row[0].decode(String.self, at: 3) == "people missed Print")
            #expect(try row[0].decode(Int64.self, at: 4) == id)
            #expect(try row[0].decode(Int32.self, at: 5) == 1)
            #expect(try row[0].decode(Int32.self, at: 6) == 2)
            #expect(try row[0].decode(String.self, at: 1) != row[0].decode(String.self, at: 7), "a menu_version of its own")

            // Nothing left to undo: refused, with the reason, and nothing changes.
            let again = try ReviewFixture.menurank(daemon, ["layouts", "rollback", "mail.message", "--app", "alpha", "--note", "x"])
            #expect(again.status == 1)
            #expect(again.standardError.contains("only the last accepted layout can be rolled back"), "\(again.standardError)")
            let noNote = try ReviewFixture.menurank(daemon, ["layouts", "rollback", "mail.message"])
            #expect(noNote.status == 64, "\(noNote.standardError)")
            let unknown = try ReviewFixture.menurank(daemon, ["layouts", "rollback", "no.such.type", "--note", "x"])
            #expect(unknown.status == 1)
            #expect(unknown.standardError.contains("no app has a layout for no.such.type"), "\(unknown.standardError)")
            #expect(try daemon.count("SELECT count(*) FROM layout_rollbacks") == 1)
        }
    }

    @Test func theAdminAPIRollsBackForItsAppOnly() throws {
        try Daemon.with(prefix: "rollback_api") { daemon in
            let tokens = TokenStore(pool: daemon.pool)
            let token = try tokens.create(name: "ron", appName: "alpha").token
            let beta = try tokens.create(name: "bet", appName: "beta").token
            let (id, before) = try Self.accept(daemon, token: token)
            let path = "/v1/admin/layouts/rollback"
            let body = #"{"app":"alpha","element_type":"mail.message","note":"dismissals went up"}"#
            for bad in ["", "[]", #"{"app":"alpha","element_type":"mail.message"}"#,
                        #"{"app":"alpha","element_type":"mail.message","note":""}"#,
                        #"{"app":"alpha","note":"x"}"#, #"{"app":"alpha","element_type":"mail.message","note":"a\u0007b"}"#] {
                let reply = try Self.post(daemon, path, token: token, body: bad)
                #expect(reply.status == 400, "\(bad): \(reply.text)")
            }
            #expect(try Self.post(daemon, path, token: beta, body: body).error == "unknown_app")
            let outside = Reply(try daemon.client().send(method: "GET", path: "/v1/admin/layouts?app=alpha&element_type=mail.message",
                                                         headers: ["Authorization": "Bearer \(beta)"]))
            #expect(outside.status == 404)
            #expect(try daemon.count("SELECT count(*) FROM layout_rollbacks") == 0)

            let listed = Reply(try daemon.client().send(method: "GET", path: "/v1/admin/layouts?app=alpha&element_type=mail.message",
                                                        headers: ["Authorization": "Bearer \(token)"]))
            #expect(listed.json["can_roll_back"] as? Bool == true, "\(listed.text)")
            #expect((listed.json["layouts"] as? [[String: Any]])?.map { $0["source"] as? String } == ["manifest", "proposal"])

            let done = try Self.post(daemon, path, token: token, body: body)
            try #require(done.status == 200, "\(done.text)")
            #expect(done.json["decided_by"] as? String == "token:ron")
            #expect(done.json["proposal_id"] as? Int == Int(id))
            #expect(done.json["layout_version"] as? Int == 3)
            let after = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(Self.groups(after) == Self.groups(before))
            #expect((after.json["menus"] as? [String: [String: Any]])?["mail.message"]?["menu_version"] as? String
                == done.json["menu_version"] as? String, "\(after.text)")

            let refused = try Self.post(daemon, path, token: token, body: body)
            #expect(refused.status == 409)
            #expect(refused.error == "rollback_refused")
            let history = Reply(try daemon.client().send(method: "GET", path: "/v1/admin/layouts?app=alpha&element_type=mail.message",
                                                         headers: ["Authorization": "Bearer \(token)"]))
            #expect(history.json["can_roll_back"] as? Bool == false)
            #expect((history.json["rollbacks"] as? [[String: Any]])?.first?["note"] as? String == "dismissals went up")
        }
    }
}
