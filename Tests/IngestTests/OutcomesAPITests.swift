import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// `GET /v1/admin/outcomes` (the element type's page shows it): the document of `menurank outcomes
/// --format json` for the same arguments (without the rollouts, which the page reads from
/// `GET /v1/admin/rollouts`), with the usage's query checks and the admin API's token rules.
@Suite(TestDatabase.enabled) struct OutcomesAPITests {
    @Test func outcomesEqualTheCommandsAndTokensAreChecked() throws {
        try Daemon.with(prefix: "outcomes_api") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "olga", appName: nil).token
            let accepted = try AdminAPITests().request(daemon, "POST", "/v1/admin/proposals/\(id)", token: token,
                                                       body: #"{"decision":"accept"}"#)
            let newVersion = try #require(accepted.json["menu_version"] as? String, "\(accepted.text)")
            // Clients on both layouts over the last two days, the accepted one faster.
            for (version, latency) in [("2026.11.1", 900), (newVersion, 700)] {
                let events = (0..<240).map { i in
                    Payload.event(time: Payload.now(offsetSeconds: -Double(i % 2) * 86_400 - 60 - Double(i)), command: "reply",
                                  extra: "\"user\":\"u\(i % 40)\",\"position\":0,\"latency_ms\":\(latency + i % 50),"
                                      + "\"menu_version\":\"\(version)\"")
                }
                let sent = try daemon.post(Payload.batch(events))
                try #require(sent.accepted == 240, "\(sent.text)")
            }
            // The usage read folds what just arrived, as the page asks for it first.
            #expect(try UsageAPITests.request(daemon, "/v1/admin/usage?app=alpha", token: token).status == 200)
            let today = UsageAPITests.today
            let api = try UsageAPITests.request(daemon, "/v1/admin/outcomes?app=alpha&element_type=mail.message&to=\(today)",
                                                token: token)
            try #require(api.status == 200, "\(api.text)")
            let cli = try ReviewFixture.menurank(daemon, ["outcomes", "--app", "alpha", "--element-type", "mail.message",
                                                          "--as-of", today, "--format", "json"])
            try #require(cli.status == 0, "\(cli.standardError)")
            var expected = try UsageAPITests.object(cli.standardOutput)
            expected["rollouts"] = nil
            // Beside the document, how current it is (the usage read above counted everything).
            var document = api.json
            let freshness = try #require(document.removeValue(forKey: "freshness") as? [String: Any], "\(api.text)")
            #expect(freshness["uncounted_events"] as? Int == 0 && freshness["rolled_up_at"] is String, "\(freshness)")
            #expect(NSDictionary(dictionary: document).isEqual(to: expected), "API \(api.text)\nCLI \(cli.standardOutput)")
            let element = try #require((api.json["element_types"] as? [[String: Any]])?.first)
            let comparisons = try #require(element["comparisons"] as? [[String: Any]])
            #expect(comparisons.count == 1 && comparisons.first?["proposal_id"] as? Int == Int(id), "\(comparisons)")
            #expect((element["versions"] as? [[String: Any]])?.map { $0["status"] as? String } == ["known", "known", "not_sent"], "\(element)")

            for (path, status, code) in [("/v1/admin/outcomes", 400, "invalid_query"),
                                         ("/v1/admin/outcomes?app=alpha&window=3", 400, "invalid_query"),
                                         ("/v1/admin/outcomes?app=alpha&commands=false", 400, "invalid_query"),
                                         ("/v1/admin/outcomes?app=alpha&from=yesterday", 400, "invalid_query"),
                                         ("/v1/admin/outcomes?app=nosuch", 404, "unknown_app")]
            {
                let reply = try UsageAPITests.request(daemon, path, token: token)
                #expect(reply.status == status && reply.error == code, "\(path): \(reply.text)")
            }
            #expect(try UsageAPITests.request(daemon, "/v1/admin/outcomes?app=alpha", token: nil).status == 401)
            // A token scoped to another app gets the answer of a missing app; its own app needs no name.
            let scoped = try TokenStore(pool: daemon.pool).create(name: "bo", appName: "beta").token
            let others = try UsageAPITests.request(daemon, "/v1/admin/outcomes?app=alpha", token: scoped)
            #expect(others.status == 404 && others.error == "unknown_app" && others.message == "no app named alpha", "\(others.text)")
            let own = try UsageAPITests.request(daemon, "/v1/admin/outcomes", token: scoped)
            #expect(own.status == 200 && own.json["app"] as? String == "beta", "\(own.text)")
        }
    }
}
