import Foundation
import HTTP
import Ingest
import Postgres
import Storage
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct RequestErrorTests {
    @Test func everyWholeRequestErrorHasItsStatusAndJSONBody() throws {
        try Daemon.with(configure: { $0.maxBodyBytes = 16 * 1024; $0.maxEventsPerBatch = 5 }) { (daemon) throws in
            let valid = Payload.batch(Payload.events(1))
            func check(_ reply: Reply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
                #expect(reply.error == code, "\(reply.text)", sourceLocation: sourceLocation)
                #expect(reply.message?.isEmpty == false, sourceLocation: sourceLocation)
            }
            // 400: unparseable JSON, saying where.
            let bad = try daemon.post("{\"events\": [\n  {\"id\": }]}")
            check(bad, 400, "invalid_json")
            #expect(bad.json["line"] as? Int == 2 && bad.json["column"] != nil)
            // 401: missing key, malformed header, unknown key, read key used to write.
            check(try daemon.post(valid, key: ""), 401, "missing_key")
            check(try daemon.post(valid, key: "", headers: ["Content-Type": "application/json", "Authorization": "Basic abc"]),
                  401, "missing_key")
            check(try daemon.post(valid, key: "mrk_w_" + String(repeating: "Z", count: 32)), 401, "unknown_key")
            check(try daemon.post(valid, key: daemon.alpha.readKey), 401, "wrong_key_kind")
            // 403: revoked.
            let rotated = try AppStore(pool: daemon.pool).rotateKey(appName: "beta", kind: .write)
            check(try daemon.post(valid, key: daemon.beta.writeKey), 403, "revoked_key")
            #expect(try daemon.post(valid, key: rotated.key).status == 200)
            // 405 with Allow.
            let get = try daemon.get("/v1/events", key: daemon.alpha.writeKey)
            check(get, 405, "method_not_allowed")
            #expect(get.headers["Allow"]?.contains("POST") == true)
            // 413: body over the limit (answered by the server before the body is read), too many events.
            let huge = try daemon.post(String(repeating: " ", count: 20 * 1024) + valid)
            #expect(huge.status == 413)
            check(try daemon.post(Payload.batch(Payload.events(6))), 413, "too_many_events")
            // 415: content type, content encoding.
            check(try daemon.post(valid, headers: ["Content-Type": "text/plain"]), 415, "unsupported_media_type")
            check(try daemon.post(valid, headers: [:]), 415, "unsupported_media_type")
            check(try daemon.post(valid, headers: ["Content-Type": "application/json", "Content-Encoding": "br"]),
                  415, "unsupported_content_encoding")
            #expect(try daemon.post(valid, headers: ["Content-Type": "application/json; charset=utf-8"]).status == 200)
            // 404 for an unknown path.
            check(try daemon.get("/v1/nope"), 404, "not_found")
            #expect(try daemon.count("SELECT count(*) FROM events") == 2)
        }
    }

    @Test func rateLimitAnswers429WithRetryAfterPerKey() throws {
        try Daemon.with(configure: { $0.rateLimit = 1; $0.rateBurst = 3 }) { (daemon) throws in
            let client = daemon.client()
            var statuses: [Int] = []
            var retryAfter: String?
            for _ in 0..<5 {
                let reply = try daemon.post(Payload.batch(Payload.events(1)), client: client)
                statuses.append(reply.status)
                if reply.status == 429 {
                    retryAfter = reply.headers["Retry-After"]
                    #expect(reply.error == "rate_limited")
                }
            }
            #expect(statuses.prefix(3) == [200, 200, 200])
            #expect(statuses.suffix(2) == [429, 429])
            #expect(Int(retryAfter ?? "") ?? 0 >= 1)
            // Another key has its own bucket.
            #expect(try daemon.post(Payload.batch(Payload.events(1)), key: daemon.beta.writeKey).status == 200)
            #expect(try daemon.count("SELECT count(*) FROM events") == 4)
        }
    }

    @Test func healthReadinessAndMetrics() throws {
        try Daemon.with { (daemon) throws in
            #expect(try daemon.get("/healthz").status == 200)
            let ready = try daemon.get("/readyz")
            #expect(ready.status == 200 && ready.json["status"] as? String == "ready")
            _ = try daemon.post(Payload.batch([Payload.event(), Payload.event(id: "x")]))
            _ = try daemon.post("{", key: "")
            let metrics = try daemon.get("/metrics")
            #expect(metrics.status == 200)
            for series in [
                "menurank_http_requests_total{route=\"/v1/events\",status=\"200\"} 1",
                "menurank_http_requests_total{route=\"/v1/events\",status=\"401\"} 1",
                "menurank_events_accepted_total 1",
                "menurank_events_rejected_total{code=\"invalid_id\"} 1",
                "menurank_ingest_batch_events_count 1",
                "http_server_request_duration_seconds_bucket{",
                "menurank_db_pool_connections_in_use{pool=\"general\"}",
                "menurank_db_pool_connections_in_use{pool=\"ingest\"}",
                "menurank_writer_transaction_rows_count 1",
                "menurank_database_up 1",
            ] {
                #expect(metrics.text.contains(series), "missing \(series)")
            }
        }
    }
}
