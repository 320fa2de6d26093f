import Foundation
import HTTP
import Ingest
import Postgres
import Storage
import TestSupport
import Testing

/// A corpus of malformed requests: each must get a 4xx (never a 500, never a crash) and store nothing.
@Suite(TestDatabase.enabled) struct MalformedRequestTests {
    /// A name and a body (with optional headers) per case.
    static let corpus: [(name: String, body: [UInt8], headers: HTTPHeaders)] = {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        let event = Payload.event()
        let valid = Payload.batch([event])
        var cases: [(String, [UInt8], HTTPHeaders)] = []
        func add(_ name: String, _ text: String, _ headers: HTTPHeaders = json) { cases.append((name, Array(text.utf8), headers)) }
        func addBytes(_ name: String, _ bytes: [UInt8], _ headers: HTTPHeaders = json) { cases.append((name, bytes, headers)) }
        // Truncated and invalid JSON.
        add("empty body", "")
        add("whitespace only", "   \n ")
        for cut in [1, 5, 12, 20, valid.utf8.count / 2, valid.utf8.count - 1] {
            add("truncated at \(cut)", String(valid.prefix(cut)))
        }
        add("trailing garbage", valid + "x")
        add("two documents", valid + valid)
        add("single quotes", "{'events': []}")
        add("unquoted key", "{events: []}")
        add("trailing comma", "{\"events\": [\(event),]}")
        add("bare word", "events")
        add("NaN", "{\"events\": NaN}")
        add("comment", "{/* c */\"events\": []}")
        add("unterminated string", "{\"events\": [{\"id\": \"abc}]}")
        add("bad escape", "{\"events\": [{\"id\": \"\\x41\"}]}")
        add("lone surrogate escape", "{\"events\": [], \"context\": {\"locale\": \"\\ud800\"}}")
        // Not a batch.
        add("top-level array", "[\(event)]")
        add("top-level string", "\"hello\"")
        add("top-level number", "42")
        add("top-level null", "null")
        add("events missing", "{\"sent_at\": \"\(Payload.now())\"}")
        add("events is an object", "{\"events\": {}}")
        add("events is a string", "{\"events\": \"[]\"}")
        add("events is null", "{\"events\": null}")
        add("events given twice", "{\"events\": [], \"events\": []}")
        add("context is an array", "{\"context\": [], \"events\": [\(event)]}")
        add("context field wrong type", "{\"context\": {\"is_test\": \"yes\"}, \"events\": [\(event)]}")
        add("sent_at not a time", "{\"sent_at\": \"yesterday\", \"events\": [\(event)]}")
        add("sent_at a number", "{\"sent_at\": 1700000000, \"events\": [\(event)]}")
        // Huge numbers, deep nesting.
        add("huge number in events", "{\"events\": 1\(String(repeating: "0", count: 400))}")
        add("huge exponent", "{\"events\": 1e999999999}")
        add("deep nesting", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        add("deep nesting in events", "{\"events\": " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}")
        add("deep nesting in context", "{\"context\": " + String(repeating: "{\"a\":", count: 3_000) + "1" + String(repeating: "}", count: 3_000) + ", \"events\": [\(event)]}")
        // Invalid UTF-8 and NUL bytes.
        addBytes("invalid UTF-8 in a key", Array("{\"ev".utf8) + [0xFF, 0xFE] + Array("\": []}".utf8))
        addBytes("overlong UTF-8 encoding", Array("{\"events\": [], \"x\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8))
        addBytes("truncated UTF-8 sequence", Array("{\"events\": [], \"x\": \"".utf8) + [0xE2, 0x82] + Array("\"}".utf8))
        addBytes("raw NUL in structure", Array("{\"events\":".utf8) + [0x00] + Array("[]}".utf8))
        addBytes("raw NUL inside a string", Array("{\"events\": [], \"context\": {\"locale\": \"a".utf8) + [0x00] + Array("b\"}}".utf8))
        addBytes("UTF-16 body", Array(valid.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        addBytes("binary noise", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        // Overlong strings in batch-level fields.
        add("overlong context field", "{\"context\": {\"app_version\": \"\(String(repeating: "v", count: 100_000))\"}, \"events\": [\(event)]}")
        add("overlong sent_at", "{\"sent_at\": \"\(String(repeating: "2", count: 10_000))\", \"events\": [\(event)]}")
        // Wrong content types and encodings.
        add("text/plain", valid, ["Content-Type": "text/plain"])
        add("no content type", valid, [:])
        add("form encoded", "events=1", ["Content-Type": "application/x-www-form-urlencoded"])
        add("multipart", valid, ["Content-Type": "multipart/form-data; boundary=x"])
        add("application/jsonl", valid, ["Content-Type": "application/jsonl"])
        add("json with deflate", valid, ["Content-Type": "application/json", "Content-Encoding": "deflate"])
        add("json with br", valid, ["Content-Type": "application/json", "Content-Encoding": "br"])
        add("claims gzip, is not", valid, ["Content-Type": "application/json", "Content-Encoding": "gzip"])
        addBytes("gzip of garbage", Gzip.deflate(Array("not json at all".utf8)),
                 ["Content-Type": "application/json", "Content-Encoding": "gzip"])
        addBytes("truncated gzip", Array(Gzip.deflate(Array(valid.utf8)).prefix(20)),
                 ["Content-Type": "application/json", "Content-Encoding": "gzip"])
        return cases.map { (name: $0.0, body: $0.1, headers: $0.2) }
    }()

    @Test func corpusHasAtLeastFiftyCases() {
        #expect(Self.corpus.count >= 50)
    }

    @Test func everyMalformedRequestGetsA4xxAndStoresNothing() throws {
        try Daemon.with(configure: { $0.maxBodyBytes = 256 * 1024 }) { (daemon) throws in
            let client = daemon.client()
            for entry in Self.corpus {
                var headers = entry.headers
                headers.set("Authorization", "Bearer \(daemon.alpha.writeKey)")
                let response: HTTPClientResponse
                do {
                    response = try client.send(method: "POST", path: "/v1/events", headers: headers, body: entry.body)
                } catch {
                    Issue.record("\(entry.name): no response (\(error))")
                    client.close()
                    continue
                }
                #expect((400...499).contains(response.status), "\(entry.name): \(response.status) \(response.text.prefix(200))")
                if response.headers["Content-Type"] == "application/json" {
                    let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
                    #expect(json?["error"] is String, "\(entry.name): \(response.text.prefix(200))")
                }
            }
            #expect(try daemon.count("SELECT count(*) FROM events") == 0)
            // The daemon is still fine.
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
        }
    }
}
