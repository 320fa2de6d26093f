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

    /// A daemon whose lookups of never-seen tokens are bounded by `burst` (its refill too slow to
    /// matter during a test; an address's share a quarter of it), made-up tokens remembered.
    static func withThrottledDaemon(prefix: String, burst: Double, _ body: (Daemon) throws -> Void) throws {
        try Daemon.with(prefix: prefix, configure: { configuration in
            configuration.keyCacheTTL = .seconds(3600)
            configuration.unknownKeyLookupRate = 0.001
            configuration.unknownKeyLookupBurst = burst
        }, body)
    }

    /// `GET /v1/admin/session` with `token`, over `client`, or a new connection from `address`.
    static func session(_ token: String, on daemon: Daemon, client: HTTPClient? = nil, from address: String? = nil)
        throws -> Reply
    {
        let client = client ?? HTTPClient(port: daemon.port, timeout: .seconds(30), source: address)
        return Reply(try client.send(method: "GET", path: "/v1/admin/session", headers: ["Authorization": "Bearer \(token)"]))
    }

    @Test func aFloodOfMadeUpTokensIsBoundedAndARealTokenKeepsWorking() throws {
        try Self.withThrottledDaemon(prefix: "admin_flood", burst: 50) { daemon in
            let alice = try TokenStore(pool: daemon.pool).create(name: "alice", appName: nil).token
            let client = daemon.client()
            func session(_ token: String) throws -> Reply { try Self.session(token, on: daemon, client: client) }
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
            // At most the 50 of the burst (12 from one address), plus alice's own lookups (5), never
            // cached.
            #expect(queries <= 50 + 5, "\(queries) lookups for 400 made-up tokens; statuses \(statuses)")
            #expect(statuses[503, default: 0] >= 200, "\(statuses)")
            #expect(try #require(Self.metric(after, "menurank_admin_token_lookup_throttled")) >= 200)
            // Revocation still takes effect at once: grants are not cached.
            _ = try TokenStore(pool: daemon.pool).revoke("alice")
            #expect(try session(alice).status == 403)
        }
    }

    /// One address guessing tokens takes its own share of the lookups (a quarter of the daemon's),
    /// not all of them: an admin on another address whose token the daemon has not seen yet (a new
    /// token, a restarted daemon) is still looked up. Over real HTTP from distinct loopback
    /// addresses; the daemon-wide bound still holds over all of them.
    @Test func oneAddressGuessingTokensLeavesLookupsForAdminsElsewhere() throws {
        // The daemon's bound is a burst of 40, an address's 10.
        try Self.withThrottledDaemon(prefix: "admin_share", burst: 40) { daemon in
            let bob = try TokenStore(pool: daemon.pool).create(name: "bob", appName: nil).token
            func session(_ token: String, from address: String) throws -> Reply {
                try Self.session(token, on: daemon, from: address)
            }
            func guess(_ tokens: Range<Int>, from address: String) throws -> [Int: Int] {
                var statuses: [Int: Int] = [:]
                for index in tokens {
                    let reply = try session(Self.madeUpToken(index), from: address)
                    statuses[reply.status, default: 0] += 1
                    if reply.status == 503 {
                        #expect(reply.error == "token_lookups_throttled" && reply.headers["Retry-After"] != nil, "\(reply.text)")
                    }
                }
                return statuses
            }
            let queriesBefore = try #require(Self.metric(try daemon.get("/metrics").text, "menurank_admin_token_lookup_queries"))

            // 127.0.0.2 guesses 100 tokens: its share, 10, is looked up (401), the rest wait (503).
            #expect(try guess(0..<100, from: "127.0.0.2") == [401: 10, 503: 90])
            // From 127.0.0.3, bob's token, never seen by this daemon, is looked up and works, and
            // a made-up token is looked up and unknown, not throttled.
            #expect(try session(bob, from: "127.0.0.3").status == 200)
            #expect(try session(Self.madeUpToken(1000), from: "127.0.0.3").status == 401)

            // Three more addresses' shares take the rest of the daemon's 40 (12 are gone): 28 are
            // looked up, then every address waits, while bob, known now, keeps working.
            var rest: [Int: Int] = [:]
            for (offset, address) in ["127.0.0.4", "127.0.0.5", "127.0.0.6"].enumerated() {
                rest.merge(try guess(2000 + 100 * offset..<2010 + 100 * offset, from: address), uniquingKeysWith: +)
            }
            #expect(rest == [401: 28, 503: 2])
            #expect(try session(Self.madeUpToken(3000), from: "127.0.0.7").status == 503)
            #expect(try session(bob, from: "127.0.0.7").status == 200)
            let queries = try #require(Self.metric(try daemon.get("/metrics").text, "menurank_admin_token_lookup_queries"))
                - queriesBefore
            // 40 made-up or new tokens (bob's first among them), plus bob's later lookup (grants
            // are never cached).
            #expect(queries == 40 + 1, "\(queries) lookups")
        }
    }
}
