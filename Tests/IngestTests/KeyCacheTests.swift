import Foundation
@testable import Ingest
import HTTP
import Storage
import Locking
import TestSupport
import Testing

/// Junk keys cost neither memory nor database load, and real keys stay cached through a flood.
@Suite(TestDatabase.enabled) struct KeyCacheTests {
    static func junkKey(_ index: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        let secret = (0..<32).map { _ -> Character in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return alphabet[Int(state >> 33) % alphabet.count]
        }
        return "mrk_w_" + String(secret)
    }

    /// A metric's value from the daemon's /metrics text.
    static func metric(_ text: String, _ line: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    @Test func aFloodOfJunkKeysIsBoundedInMemoryAndQueries() throws {
        try Daemon.with(configure: { configuration in
            configuration.keyCacheTTL = .seconds(3600)
            // A bucket that refills too slowly to matter during the test: the bound is the burst.
            configuration.unknownKeyLookupRate = 0.001
            configuration.unknownKeyLookupBurst = 50
        }) { daemon in
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
            let before = try daemon.get("/metrics").text
            let queriesBefore = try #require(Self.metric(before, "menurank_key_lookup_queries"))

            let client = daemon.client()
            var statuses: [Int: Int] = [:]
            let body = Payload.batch(Payload.events(1))
            for index in 0..<1500 {
                // Made-up keys of the right shape, long junk, and the same junk again.
                let key = switch index % 3 {
                case 0: Self.junkKey(index)
                case 1: "x" + String(repeating: "j", count: 16_000) + String(index)
                default: Self.junkKey(index - 2)
                }
                let reply = try daemon.post(body, key: key, client: client)
                statuses[reply.status, default: 0] += 1
                #expect(reply.status == 401 || reply.status == 503, "\(reply.status) \(reply.text)")
                if reply.status == 503 { #expect(reply.headers["Retry-After"] != nil) }
            }
            // The real key still works throughout, from the cache.
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)

            let after = try daemon.get("/metrics").text
            let queries = try #require(Self.metric(after, "menurank_key_lookup_queries")) - queriesBefore
            #expect(queries <= 51, "\(queries) database lookups for 1500 junk keys; statuses \(statuses)")
            #expect(try #require(Self.metric(after, "menurank_key_lookup_throttled")) > 0)
            #expect(try #require(Self.metric(after, #"menurank_key_cache_entries{kind="known"}"#)) == 1)
            #expect(try #require(Self.metric(after, #"menurank_key_cache_entries{kind="unknown"}"#)) <= 51)
            #expect(statuses[401, default: 0] >= 500)  // at least the malformed ones
        }
    }

    @Test func cacheRules() throws {
        let grant = KeyGrant(appID: 1, appName: "alpha", kind: .write, revoked: false, hashSecret: [1, 2, 3])
        let real = Self.junkKey(1_000_000)
        let clock = Locked<Double>(0)
        let queries = Locked<[String]>([])
        let cache = KeyCache(ttl: .seconds(10), capacity: 4, negativeCapacity: 3, missRate: 1, missBurst: 2,
                             clock: { clock.withLock { $0 } }) { text throws(StorageError) in
            queries.withLock { $0.append(text) }
            return text == real ? grant : nil
        }
        // Malformed: unknown without a query.
        guard case .unknown = try cache.verdict(for: "Bearer-ish junk") else { Issue.record("malformed"); return }
        #expect(queries.withLock { $0 }.isEmpty)
        // A real key: one query, then cached.
        guard case .known = try cache.verdict(for: real) else { Issue.record("real"); return }
        guard case .known = try cache.verdict(for: real) else { Issue.record("real again"); return }
        #expect(queries.withLock { $0.count } == 1)
        // Unknown keys of the right shape: each costs a token; a repeat is free; an empty bucket throttles.
        guard case .unknown = try cache.verdict(for: Self.junkKey(1)) else { Issue.record("junk 1"); return }
        guard case .unknown = try cache.verdict(for: Self.junkKey(1)) else { Issue.record("junk 1 again"); return }
        guard case .throttled = try cache.verdict(for: Self.junkKey(2)) else { Issue.record("junk 2"); return }
        #expect(queries.withLock { $0.count } == 2)
        // The real key expires and is looked up again even with the bucket empty.
        clock.withLock { $0 = 11 }
        guard case .known = try cache.verdict(for: real) else { Issue.record("real refreshed"); return }
        #expect(queries.withLock { $0.count } == 3)
        // The negative set stays within its capacity.
        clock.withLock { $0 = 1000 }
        for index in 10..<40 {
            clock.withLock { $0 += 1 }
            _ = try cache.verdict(for: Self.junkKey(index))
            #expect(cache.counts.unknown <= 3)
            #expect(cache.counts.known <= 4)
        }
    }

    /// Lookups of never-seen keys are shared out by client address (behind a trusted proxy, the
    /// forwarded one): one address gets a quarter of the daemon's, so its flood leaves lookups for
    /// keys sent from elsewhere; the daemon's own bound still holds over all addresses.
    @Test func unknownKeyLookupsAreSharedOutByClientAddress() throws {
        let clock = Locked<Double>(0)
        let queries = Locked(0)
        let cache = KeyCache(ttl: .seconds(10), missRate: 4, missBurst: 8, clock: { clock.withLock { $0 } }) { _ throws(StorageError) in
            queries.withLock { $0 += 1 }
            return nil
        }
        func verdict(_ index: Int, from address: String) throws -> String {
            switch try cache.verdict(for: Self.junkKey(index), from: address) {
            case .known: "known"
            case .unknown: "unknown"
            case .throttled: "throttled"
            }
        }
        // 203.0.113.1 floods: two lookups (a quarter of the burst of 8), then it is throttled.
        #expect(try (0..<5).map { try verdict($0, from: "203.0.113.1") } == ["unknown", "unknown", "throttled", "throttled", "throttled"])
        // Another address is still looked up.
        #expect(try verdict(100, from: "198.51.100.2") == "unknown")
        // Four addresses' shares exhaust the daemon's bucket: then every address waits.
        for (offset, address) in ["198.51.100.3", "198.51.100.4", "198.51.100.5"].enumerated() {
            _ = try verdict(200 + 2 * offset, from: address)
            _ = try verdict(201 + 2 * offset, from: address)
        }
        #expect(queries.withLock { $0 } == 8)
        #expect(try verdict(300, from: "198.51.100.6") == "throttled")
        // A second later each address and the daemon have a token again.
        clock.withLock { $0 = 1 }
        #expect(try verdict(400, from: "203.0.113.1") == "unknown")
    }
}
