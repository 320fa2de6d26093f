import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// Issue 32: made-up admin tokens were looked up in the database one transaction each (3,706 a
/// second made 3,740 transactions a second). They now cost at most the bucket's lookups, as made-up
/// app keys do, while a real token keeps working through the flood.
@Suite(TestDatabase.enabled) struct AdminTokenThrottleTests {
    static func madeUpToken(_ index: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 7
        return "mrk_a_" + String((0..<32).map { _ -> Character in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return alphabet[Int(state >> 33) % alphabet.count]
        })
    }

    static func metric(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    @Test func aFloodOfMadeUpTokensIsBoundedAndARealTokenKeepsWorking() throws {
        try Daemon.with(prefix: "admin_flood", configure: { configuration in
            configuration.keyCacheTTL = .seconds(3600)
            // Too slow a refill to matter during the test: the bound is the burst.
            configuration.unknownKeyLookupRate = 0.001
            configuration.unknownKeyLookupBurst = 50
        }) { daemon in
            let alice = try TokenStore(pool: daemon.pool).create(name: "alice", appName: nil).token
            let client = daemon.client()
            func session(_ token: String) throws -> Reply {
                Reply(try client.send(method: "GET", path: "/v1/admin/session", headers: ["Authorization": "Bearer \(token)"]))
            }
            #expect(try session(alice).status == 200)
            let queriesBefore = try #require(Self.metric(try daemon.get("/metrics").text, "menurank_admin_token_lookup_queries"))

            var statuses: [Int: Int] = [:]
            for index in 0..<400 {
                // New made-up tokens, and some of them again.
                let reply = try session(Self.madeUpToken(index % 4 == 3 ? index - 3 : index))
                statuses[reply.status, default: 0] += 1
                if reply.status == 503 {
                    #expect(reply.error == "token_lookups_throttled" && reply.headers["Retry-After"] != nil, "\(reply.text)")
                } else {
                    #expect(reply.status == 401 && reply.error == "unknown_token", "\(reply.status) \(reply.text)")
                }
                if index % 100 == 0 { #expect(try session(alice).status == 200, "the real token during the flood") }
            }
            #expect(try session(alice).status == 200)
            let after = try daemon.get("/metrics").text
            let queries = try #require(Self.metric(after, "menurank_admin_token_lookup_queries")) - queriesBefore
            // 50 made-up tokens from the burst, plus alice's own lookups (5), never cached.
            #expect(queries <= 50 + 5, "\(queries) lookups for 400 made-up tokens; statuses \(statuses)")
            #expect(statuses[503, default: 0] >= 200, "\(statuses)")
            #expect(try #require(Self.metric(after, "menurank_admin_token_lookup_throttled")) >= 200)
            // Revocation still takes effect at once: grants are not cached.
            _ = try TokenStore(pool: daemon.pool).revoke("alice")
            #expect(try session(alice).status == 403)
        }
    }
}
