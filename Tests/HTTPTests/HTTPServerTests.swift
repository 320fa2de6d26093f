import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

@Suite("HTTPServer")
struct HTTPServerTests {
    /// Echoes what it received: method, path, query, selected headers, body.
    private static func echo(_ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = ["X-Method": request.method, "X-Path": request.path,
                                    "X-Body-Length": String(request.body.count)]
        for parameter in request.queryParameters {
            headers.add("X-Query", "\(parameter.name)=\(parameter.value)")
        }
        if let type = request.header("content-type") { headers.add("X-Content-Type", type) }
        headers.add("X-Seen-Request-Id", request.requestID)
        headers.add("Content-Type", "application/octet-stream")
        return HTTPResponse(status: 201, headers: headers, body: request.body)
    }

    private func withServer<T: Sendable>(
        _ configuration: HTTPServer.Configuration = .init(),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse = Self.echo,
        _ body: @escaping @Sendable (UInt16) throws -> T
    ) async throws -> T {
        let server = HTTPServer(configuration: configuration, handler: handler)
        let port = try server.start()
        #expect(port != 0)
        #expect(server.port == port)
        defer { server.shutdown(gracePeriod: .seconds(5)) }
        return try await onThread { try body(port) }
    }

    @Test("GET and POST round trips with headers, query and binary bodies on one kept-alive connection")
    func roundTrips() async throws {
        try await withServer { port in
            let client = HTTPClient(port: port)
            let get = try client.send(method: "GET", path: "/v1/menus/mail.message?x=1&name=a%20b+c&flag",
                                      headers: ["Accept": "application/json"])
            #expect(get.status == 201)
            #expect(get.header("x-method") == "GET")
            #expect(get.header("X-Path") == "/v1/menus/mail.message")
            #expect(get.headers.values(for: "x-query") == ["x=1", "name=a b c", "flag="])
            #expect(get.header("x-body-length") == "0")
            #expect(get.body.isEmpty)

            let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let post = try client.send(method: "POST", path: "/v1/events",
                                       headers: ["Content-Type": "application/octet-stream", "X-Request-Id": "req-42.a:b_c"],
                                       body: binary)
            #expect(post.status == 201)
            #expect(post.header("X-Content-Type") == "application/octet-stream")
            #expect(post.header("X-Seen-Request-Id") == "req-42.a:b_c")
            #expect(post.header("X-Request-Id") == "req-42.a:b_c")
            #expect(post.body == binary)

            let empty = try client.send(method: "POST", path: "/empty")
            #expect(empty.status == 201)
            #expect(empty.header("x-body-length") == "0")
            #expect(client.connectionsOpened == 1)
        }
    }

    @Test("an invalid X-Request-Id is replaced by a generated one")
    func requestID() async throws {
        try await withServer { port in
            let client = HTTPClient(port: port)
            let first = try client.send(method: "GET", path: "/", headers: ["X-Request-Id": "has space"])
            let second = try client.send(method: "GET", path: "/")
            let firstID = try #require(first.header("X-Request-Id"))
            let secondID = try #require(second.header("X-Request-Id"))
            #expect(firstID.count == 32)
            let allHex = firstID.allSatisfy { $0.isHexDigit }
            #expect(allHex)
            #expect(firstID != secondID)
            #expect(first.header("X-Seen-Request-Id") == firstID)
        }
    }

    @Test("HEAD gets the headers without the body")
    func head() async throws {
        try await withServer(handler: { _ in .text("twelve bytes") }) { port in
            let client = HTTPClient(port: port)
            let head = try client.send(method: "HEAD", path: "/")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == "12")
            let get = try client.send(method: "GET", path: "/")
            #expect(get.text == "twelve bytes")
        }
    }

    @Test("a Content-Length over the cap is answered 413 before the body is read")
    func tooLargeByContentLength() async throws {
        let calls = Atomic<Int>(0)
        try await withServer(.init(maxBodyBytes: 1000), handler: { request in
            calls.add(1, ordering: .relaxed)
            return Self.echo(request)
        }) { port in
            let client = HTTPClient(port: port)
            let fits = try client.send(method: "POST", path: "/", body: [UInt8](repeating: 1, count: 1000))
            #expect(fits.status == 201)
            let big = try client.send(method: "POST", path: "/", body: [UInt8](repeating: 1, count: 1001))
            #expect(big.status == 413)
            #expect(big.text.contains("payload_too_large"))
            #expect(big.header("Connection")?.lowercased() == "close")
            // A body far larger than socket buffers: the client is still writing when the 413 comes.
            let huge = try HTTPClient(port: port).send(method: "POST", path: "/", body: [UInt8](repeating: 2, count: 8 << 20))
            #expect(huge.status == 413)
            // A declared length far beyond the cap, with only a little of the body actually sent.
            let raw = Array("POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000000\r\n\r\nabc".utf8)
            let declared = try HTTPClient(port: port).sendRaw(raw)
            #expect(declared.status == 413)
            // The server is fine afterwards.
            #expect(try HTTPClient(port: port).send(method: "GET", path: "/").status == 201)
        }
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test("a chunked body growing over the cap is answered 413")
    func tooLargeChunked() async throws {
        let calls = Atomic<Int>(0)
        try await withServer(.init(maxBodyBytes: 4096), handler: { request in
            calls.add(1, ordering: .relaxed)
            return Self.echo(request)
        }) { port in
            func chunked(_ chunks: [[UInt8]]) -> [UInt8] {
                var body: [UInt8] = []
                for chunk in chunks {
                    body += Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
                }
                return body + Array("0\r\n\r\n".utf8)
            }
            let client = HTTPClient(port: port)
            let small = chunked([[UInt8](repeating: 7, count: 1000), [UInt8](repeating: 8, count: 1000)])
            let fits = try client.send(method: "POST", path: "/", headers: ["Transfer-Encoding": "chunked"], body: small)
            #expect(fits.status == 201)
            #expect(fits.body == [UInt8](repeating: 7, count: 1000) + [UInt8](repeating: 8, count: 1000))

            let big = chunked(Array(repeating: [UInt8](repeating: 9, count: 1500), count: 40))
            let over = try HTTPClient(port: port).send(method: "POST", path: "/",
                                                       headers: ["Transfer-Encoding": "chunked"], body: big)
            #expect(over.status == 413)
            #expect(over.header("Connection")?.lowercased() == "close")

            // A chunked body that never ends: after the discard allowance the connection is closed.
            var endless = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 3, count: 0x10000) + [13, 10]
            for _ in 0..<40 { endless += chunk }
            #expect(throws: HTTPError.self) { try HTTPClient(port: port).sendRaw(endless) }
            #expect(try client.send(method: "GET", path: "/").status == 201)
        }
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test("a response the server cannot send as given becomes a 500, and the server carries on")
    func internalProblems() async throws {
        try await withServer(handler: { request in
            switch request.path {
            case "/bad-header": HTTPResponse(status: 200, headers: ["X-Evil": "a\r\nInjected: yes"], body: [1])
            case "/bad-name": HTTPResponse(status: 200, headers: ["Bad Name": "x"])
            case "/bad-status": HTTPResponse(status: 42)
            default: .text("ok")
            }
        }) { port in
            let client = HTTPClient(port: port)
            for path in ["/bad-header", "/bad-name", "/bad-status"] {
                let response = try client.send(method: "GET", path: path)
                #expect(response.status == 500, "\(path)")
                #expect(response.header("Injected") == nil)
                #expect(response.text.contains("\"error\":\"internal_error\""))
            }
            #expect(try client.send(method: "GET", path: "/fine").text == "ok")
        }
    }

    @Test("malformed requests never take the server down")
    func malformed() async throws {
        try await withServer(.init(maxBodyBytes: 1000, connectionTimeout: .seconds(2))) { port in
            let garbage: [[UInt8]] = [
                Array("GARBAGE\r\n\r\n".utf8),
                Array("\u{01}\u{02}\u{03} / HTTP/1.1\r\n\r\n".utf8),
                Array("GET / HTTP/9.9\r\nHost: x\r\n\r\n".utf8),
                Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n".utf8),
                Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8),
                Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n0123456789".utf8),
                Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nabc\r\n0\r\n\r\n".utf8),
                Array("GET / HTTP/1.1\r\nHost: x\r\nX-Huge: \(String(repeating: "a", count: 200_000))\r\n\r\n".utf8),
                Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)
                    + Array((0..<5000).map { "X-H\($0): v\r\n" }.joined().utf8) + [13, 10],
                Array("GET /\(String(repeating: "p", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Array("GET / HTTP/1.1\r\nNoColonHere\r\n\r\n".utf8),
                [UInt8](repeating: 0, count: 4096),
                (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 151) },
            ]
            for request in garbage {
                do {
                    let response = try HTTPClient(port: port, timeout: .seconds(5)).sendRaw(request, closeWriting: true)
                    #expect((400...599).contains(response.status) || response.status == 201,
                            "status \(response.status) for \(String(decoding: request.prefix(40), as: UTF8.self).debugDescription)")
                } catch let error as HTTPError {
                    // Closing the connection without an answer is acceptable; crashing is not.
                    #expect(error.kind == .connectionClosed, "\(error)")
                }
                #expect(try HTTPClient(port: port).send(method: "GET", path: "/alive").status == 201)
            }
            // A body shorter than its Content-Length, then the client goes away.
            let short = Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nonly this".utf8)
            #expect(throws: HTTPError.self) { try HTTPClient(port: port).sendRaw(short, closeWriting: true) }
            // A body longer than its Content-Length: the rest is read as the next request.
            let long = Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcdefgh\r\n\r\n".utf8)
            let answer = try HTTPClient(port: port).sendRaw(long, closeWriting: true)
            #expect(answer.status == 201)
            #expect(answer.text == "abc")
            #expect(try HTTPClient(port: port).send(method: "GET", path: "/alive").status == 201)
        }
    }

    @Test("a second start and a bad host are refused")
    func configurationErrors() throws {
        let server = HTTPServer(handler: { _ in .text("") })
        try server.start()
        #expect(throws: HTTPError.self) { try server.start() }
        server.stop()
        let badHost = HTTPServer(configuration: .init(host: "localhost.invalid"), handler: { _ in .text("") })
        do {
            try badHost.start()
            Issue.record("started on a name")
        } catch {
            #expect(error.kind == .invalidConfiguration)
        }
        let busy = HTTPServer(handler: { _ in .text("") })
        let port = try busy.start()
        let clash = HTTPServer(configuration: .init(port: port), handler: { _ in .text("") })
        do {
            try clash.start()
            Issue.record("two servers on one port")
        } catch {
            #expect(error.kind == .startFailed)
        }
        busy.stop()
    }
}
