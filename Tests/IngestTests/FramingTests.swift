import Foundation
import HTTP
import Ingest
import TestSupport
import Testing

/// Ambiguous or broken framing is refused before the body is read, and the connection closed, so
/// nothing left over is ever served as a second request (RFC 9112 §6.3). Through raw sockets
/// against the real daemon.
@Suite(TestDatabase.enabled) struct FramingTests {
    /// A batch body and a request smuggled after it.
    static let body = Payload.batch([Payload.event()])
    static let smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    static func request(key: String, fields: [String], body: String = body, version: String = "HTTP/1.1") -> String {
        var head = "POST /v1/events \(version)\r\n"
        for field in ["Authorization: Bearer \(key)", "Content-Type: application/json"] + fields {
            head += field + "\r\n"
        }
        return head + "\r\n" + body
    }

    /// Name, extra header fields (Host included where wanted), the status expected.
    static let cases: [(name: String, fields: [String], status: Int)] = {
        let length = "Content-Length: \(body.utf8.count)"
        let chunkedBody = "Transfer-Encoding: chunked"
        return [
            ("Content-Length with Transfer-Encoding", ["Host: x", length, chunkedBody], 400),
            ("Transfer-Encoding with Content-Length", ["Host: x", chunkedBody, length], 400),
            ("two different Content-Lengths", ["Host: x", length, "Content-Length: \(body.utf8.count + 5)"], 400),
            ("the same Content-Length twice", ["Host: x", length, length], 400),
            ("a list of Content-Lengths", ["Host: x", "Content-Length: \(body.utf8.count), \(body.utf8.count)"], 400),
            ("an unknown Transfer-Encoding", ["Host: x", "Transfer-Encoding: gzip"], 501),
            ("stacked Transfer-Encodings", ["Host: x", "Transfer-Encoding: gzip, chunked"], 501),
            ("Transfer-Encoding given twice", ["Host: x", chunkedBody, chunkedBody], 501),
            ("no Host on HTTP/1.1", [length], 400),
            ("two Hosts", ["Host: x", "Host: y", length], 400),
            ("a control character in a header value", ["Host: x", length, "X-Note: a\u{1}b"], 400),
            // libmicrohttpd 0.9.75 hands values over as C strings, cut at a NUL; the head shows the rest.
            ("a NUL in a header value", ["Host: x", length, "X-Note: a\u{0}b"], 400),
            ("a NUL in the last header value", ["Host: x", length, "X-Note: a\u{0}"], 400),
            ("a NUL after the key", ["Host: x", length, "X-Key: \u{0}mrk_w_other"], 400),
            ("a NUL ending the Content-Length", ["Host: x", "Content-Length: \(body.utf8.count)\u{0}0"], 400),
            ("a folded header field", ["Host: x", length, "X-Note: a", " folded"], 400),
            ("DEL in a header value", ["Host: x", length, "X-Note: a\u{7F}b"], 400),
        ]
    }()

    @Test func ambiguousFramingIsRefusedAndTheConnectionClosed() throws {
        try Daemon.with { daemon in
            for entry in Self.cases {
                let connection = try HTTPClient.connected(port: daemon.port)
                connection.write(Self.request(key: daemon.alpha.writeKey, fields: entry.fields) + Self.smuggled)
                guard let response = connection.readResponse(timeout: .seconds(60)) else {
                    Issue.record("\(entry.name): no answer")
                    continue
                }
                #expect(response.status == entry.status, "\(entry.name): \(response.status) \(response.text)")
                #expect(response.header("Connection")?.lowercased() == "close", "\(entry.name)")
                // (A list of lengths is refused by libmicrohttpd itself, with its own HTML page.)
                if response.header("Content-Type") == "application/json" {
                    #expect(response.text.contains("\"error\""), "\(entry.name): \(response.text)")
                }
                // Closed after the answer: the smuggled request is never answered.
                #expect(connection.waitForClose(timeout: .seconds(60)), "\(entry.name): still open")
                #expect(!String(decoding: connection.unread, as: UTF8.self).contains("HTTP/1.1 200"), "\(entry.name)")
            }
            #expect(try daemon.count("SELECT count(*) FROM events") == 0)
            // HTTP/1.0 needs no Host, and a plain request still works.
            let old = try HTTPClient.connected(port: daemon.port)
            old.write(Self.request(key: daemon.alpha.writeKey, fields: ["Content-Length: \(Self.body.utf8.count)"],
                                  version: "HTTP/1.0"))
            #expect(old.readResponse(timeout: .seconds(60))?.status == 200)
            #expect(try daemon.post(Payload.batch(Payload.events(2))).status == 200)
        }
    }

    @Test func aRefusedKeyIsAnsweredBeforeTheBodyIsSent() throws {
        try Daemon.with(configure: { $0.maxBodyBytes = 4 << 20 }) { daemon in
            // A 4 MiB body announced and never sent: the key is judged from the head alone.
            for key in ["", "mrk_w_unknown", daemon.alpha.readKey] {
                let connection = try HTTPClient.connected(port: daemon.port)
                var fields = ["Host: x", "Content-Length: \(4 << 20)"]
                if !key.isEmpty { fields.append("Authorization: Bearer \(key)") }
                connection.write("POST /v1/events HTTP/1.1\r\nContent-Type: application/json\r\n"
                                + fields.joined(separator: "\r\n") + "\r\n\r\n")
                let response = connection.readResponse(timeout: .seconds(60))
                #expect(response?.status == 401, "key '\(key)': \(String(describing: response?.text))")
                #expect(response?.header("Connection")?.lowercased() == "close")
            }
            // An unknown path is refused from its head too.
            let lost = try HTTPClient.connected(port: daemon.port)
            lost.write("POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: \(4 << 20)\r\n\r\n")
            #expect(lost.readResponse(timeout: .seconds(60))?.status == 404)
            // A client that sends a small body before it reads still gets its answer (the body is drained).
            let eager = try HTTPClient.connected(port: daemon.port)
            let padded = Payload.batch(Payload.events(300))
            eager.write(Self.request(key: "mrk_w_unknown", fields: ["Host: x", "Content-Length: \(padded.utf8.count)"],
                                    body: padded))
            let answer = eager.readResponse(timeout: .seconds(60))
            #expect(answer?.status == 401)
            #expect(answer?.text.contains("unknown_key") == true)
            #expect(try daemon.count("SELECT count(*) FROM events") == 0)
        }
    }
}
