import Foundation
import HTTP
import Ingest
import TestSupport
import Testing

/// Seeded random mutations of a valid batch (flipped bytes, cuts, inserted JSON fragments, some
/// gzip-encoded): every answer is a 200 or a 4xx, never a 500 or a dropped connection, and the
/// stored rows are exactly the sum of what the 200s accepted.
@Suite(TestDatabase.enabled) struct MutationFuzzTests {
    static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", "\"", "\\", "\\u0000", "\\ud800", "1e999", "-", "null", ",", ":",
        "99999999999999999999", "\"kind\": \"dismiss\"", "\"time\": 0", "\u{0}",
    ].map { Array($0.utf8) }

    static func mutate(_ base: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = base
        for _ in 0..<Int.random(in: 1...8, using: &generator) where bytes.count > 1 {
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4: bytes[at] = UInt8.random(in: 0...255, using: &generator)
            case 4..<6: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...20, using: &generator)))
            case 6..<9: bytes.insert(contentsOf: fragments.randomElement(using: &generator)!, at: at)
            default: bytes.removeSubrange(at...)
            }
        }
        return bytes
    }

    @Test func mutatedBatchesNeverFailTheDaemon() throws {
        try Daemon.with(prefix: "fuzz") { (daemon) throws in
            let base = Array(Payload.batch(Payload.events(5)).utf8)
            var generator = SplitMix64(seed: 20_261_130)
            let client = daemon.client()
            var accepted = 0
            var statuses: [Int: Int] = [:]
            for round in 0..<600 {
                var body = Self.mutate(base, using: &generator)
                var headers: HTTPHeaders = ["Content-Type": "application/json",
                                            "Authorization": "Bearer \(daemon.alpha.writeKey)"]
                if round % 10 == 0 {
                    headers.set("Content-Encoding", "gzip")
                    if round % 20 == 0 { body = Gzip.deflate(body) }
                }
                let response: HTTPClientResponse
                do {
                    response = try client.send(method: "POST", path: "/v1/events", headers: headers, body: body)
                } catch {
                    Issue.record("round \(round): no response (\(error))")
                    client.close()
                    continue
                }
                statuses[response.status, default: 0] += 1
                #expect(response.status == 200 || (400...499).contains(response.status),
                        "round \(round): \(response.status) \(response.text.prefix(200))")
                if response.status == 200,
                   let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                {
                    accepted += json["accepted"] as? Int ?? 0
                }
            }
            #expect(statuses[200, default: 0] > 0, "some mutations stay valid: \(statuses)")
            #expect(statuses.keys.contains { (400...499).contains($0) }, "most are refused: \(statuses)")
            #expect(try daemon.count("SELECT count(*) FROM events") == accepted)
            #expect(try daemon.get("/healthz").status == 200)
        }
    }
}
