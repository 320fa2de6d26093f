import Foundation
import HTTP
import TestSupport
import Testing

@Suite("HTTPClient")
struct HTTPClientTests {
    @Test("after the server closed an idle keep-alive connection the client reconnects transparently")
    func reconnectsAfterIdleTimeout() async throws {
        let server = HTTPServer(configuration: .init(connectionTimeout: .seconds(1))) { request in
            .text(request.path)
        }
        let port = try server.start()
        defer { server.shutdown(gracePeriod: .seconds(5)) }
        let opened = try await onThread { () throws -> Int in
            let client = HTTPClient(port: port)
            let first = try client.send(method: "GET", path: "/one")
            #expect(first.text == "/one")
            Thread.sleep(forTimeInterval: 1.6)
            let second = try client.send(method: "POST", path: "/two", body: [1, 2])
            #expect(second.text == "/two")
            return client.connectionsOpened
        }
        #expect(opened == 2)
    }

    @Test("Connection: close from the server makes the next request open a new connection")
    func connectionClose() async throws {
        let server = HTTPServer { request in
            request.path == "/last" ? .text("bye", headers: ["Connection": "close"]) : .text("hi")
        }
        let port = try server.start()
        defer { server.shutdown(gracePeriod: .seconds(5)) }
        let (texts, opened) = try await onThread { () -> ([String], Int) in
            let client = HTTPClient(port: port)
            var texts: [String] = []
            for path in ["/a", "/last", "/b", "/c"] {
                texts.append(try client.send(method: "GET", path: path).text)
            }
            return (texts, client.connectionsOpened)
        }
        #expect(texts == ["hi", "bye", "hi", "hi"])
        #expect(opened == 2)
    }

    @Test("a slow answer times out, a closed port fails to connect")
    func failures() async throws {
        let server = HTTPServer { _ in
            Thread.sleep(forTimeInterval: 1.0)
            return .text("late")
        }
        let port = try server.start()
        let kind = try await onThread { () throws -> HTTPError.Kind? in
            do {
                _ = try HTTPClient(port: port, timeout: .milliseconds(200)).send(method: "GET", path: "/")
                return nil
            } catch let error as HTTPError {
                return error.kind
            }
        }
        #expect(kind == .timedOut)
        server.shutdown(gracePeriod: .seconds(5))
        let refused = try await onThread { () throws -> HTTPError.Kind? in
            do {
                _ = try HTTPClient(port: port).send(method: "GET", path: "/")
                return nil
            } catch let error as HTTPError {
                return error.kind
            }
        }
        #expect(refused == .connectFailed)
    }

    @Test("chunked responses are decoded")
    func chunkedResponse() async throws {
        // A one-shot raw server that answers with a chunked body and trailers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                _ = bind(listener, generic, length)
                _ = getsockname(listener, generic, &length)
            }
        }
        listen(listener, 1)
        let port = UInt16(bigEndian: address.sin_port)
        let answer = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n".utf8)
        // The raw server runs on a thread started right here (not a child task, which could wait
        // for a cooperative thread while other suites keep them busy).
        let served = DispatchSemaphore(value: 0)
        let server = Thread {
            let connection = accept(listener, nil, nil)
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
            close(listener)
            served.signal()
        }
        server.start()
        let response = try await onThread { try HTTPClient(port: port).send(method: "GET", path: "/") }
        served.wait()
        #expect(response.status == 200)
        #expect(response.text == "hello, world")
    }
}
