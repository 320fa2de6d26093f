import Dispatch
import Foundation
import MenurankClient
import Testing

/// The library's own HTTP/1.1 connection (plain `http://` on Linux) against a server that sends
/// exactly the bytes each test gives: what proxies and servers may send besides the daemon's
/// Content-Length answers, and the failures that decide whether a batch is sent again.
@Suite("MenurankClient: HTTP connection")
struct HTTPConnectionTests {
    static func answer(_ text: String, close: Bool = false) -> CannedServer.Answer {
        CannedServer.Answer(bytes: Array(text.utf8), close: close)
    }

    @Test(arguments: [nil, 1, 7])
    func interimAnswersAreSkippedAndChunkedBodiesJoinedOnOneKeptAliveConnection(piece: Int?) throws {
        let server = try CannedServer { _ in
            var answer = Self.answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                     + "Transfer-Encoding: chunked\r\nX-Twice: a\r\nX-Twice: b\r\n\r\n"
                                     + "5\r\n{\"acc\r\n7;ext=1\r\nepted\":\r\n2\r\n1}\r\n0\r\nTrailer: t\r\n\r\n")
            answer.piece = piece
            return answer
        }
        let connection = HTTPConnection(host: "127.0.0.1", port: server.port, timeout: .seconds(60))
        defer { connection.close() }
        for _ in 0..<3 {
            let response = try connection.send(method: "POST", target: "/v1/events?x=1",
                                               headers: [(name: "Authorization", value: "Bearer k")], body: Array("{}".utf8))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"accepted":1}"#)
            #expect(response.header("x-twice") == "a, b")
        }
        #expect(server.connections == 1, "kept alive")
        let head = try #require(server.heads.first)
        #expect(head.hasPrefix("POST /v1/events?x=1 HTTP/1.1\r\n"))
        #expect(head.contains("\r\nHost: 127.0.0.1:\(server.port)") && head.contains("\r\nContent-Length: 2"))
        #expect(head.contains("\r\nAuthorization: Bearer k"))
    }

    @Test func aBodyThatEndsWithTheConnectionIsReadWholeAndTheNextRequestReconnects() throws {
        let server = try CannedServer { n in
            Self.answer("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nanswer \(n), read to the end", close: true)
        }
        let connection = HTTPConnection(host: "localhost", port: server.port, timeout: .seconds(60))
        defer { connection.close() }
        let first = try connection.send(method: "GET", target: "/", headers: [], body: [])
        #expect(String(decoding: first.body, as: UTF8.self) == "answer 0, read to the end")
        #expect(!connection.isOpen)
        let second = try connection.send(method: "GET", target: "/", headers: [], body: [])
        #expect(String(decoding: second.body, as: UTF8.self) == "answer 1, read to the end")
        #expect(server.connections == 2)
    }

    @Test func aKeptAliveConnectionTheServerDroppedWhileIdleIsReplacedWithoutAnError() throws {
        // The server answers as if it kept the connection, then closes it (an idle timeout).
        let server = try CannedServer { n in
            Self.answer("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n\(n)", close: true)
        }
        let connection = HTTPConnection(host: "127.0.0.1", port: server.port, timeout: .seconds(60))
        defer { connection.close() }
        #expect(try connection.send(method: "POST", target: "/", headers: [], body: [1]).body == Array("0".utf8))
        // Let the close reach this side, so the next request meets a dead socket.
        usleep(50_000)
        #expect(try connection.send(method: "POST", target: "/", headers: [], body: [2]).body == Array("1".utf8))
        #expect(server.connections == 2)
    }

    @Test func anUnansweredRequestFailsWhenItTimesOutAndIsNotSentTwice() throws {
        let server = try CannedServer { _ in CannedServer.Answer(bytes: [], hang: true) }
        let connection = HTTPConnection(host: "127.0.0.1", port: server.port, timeout: .milliseconds(200))
        defer { connection.close() }
        #expect(throws: HTTPConnection.Failure.self) {
            try connection.send(method: "POST", target: "/", headers: [], body: [1])
        }
        #expect(server.heads.count == 1, "a timeout is not a stale connection: never sent again at once")
    }

    @Test func interruptWakesAThreadWaitingForAnAnswer() throws {
        let server = try CannedServer { _ in CannedServer.Answer(bytes: [], hang: true) }
        let connection = HTTPConnection(host: "127.0.0.1", port: server.port, timeout: .seconds(600))
        let failed = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        let thread = Thread {
            do {
                _ = try connection.send(method: "POST", target: "/", headers: [], body: [1])
                outcome.set("answered")
            } catch {
                outcome.set("failed: \(error)")
            }
            failed.signal()
        }
        thread.start()
        #expect(server.arrived.wait(timeout: .now() + 60) == .success)
        connection.interrupt()
        #expect(failed.wait(timeout: .now() + 60) == .success, "still waiting after interrupt")
        #expect(outcome.value?.hasPrefix("failed") == true)
        connection.close()
    }

    @Test func aServerThatIsNotThereIsAFailureNotACrash() throws {
        let server = try CannedServer { _ in Self.answer("") }
        let port = server.port
        server.stop()
        let connection = HTTPConnection(host: "127.0.0.1", port: port, timeout: .seconds(5))
        #expect(throws: HTTPConnection.Failure.self) {
            try connection.send(method: "GET", target: "/", headers: [], body: [])
        }
        let nowhere = HTTPConnection(host: "no-such-host.invalid", port: 80, timeout: .seconds(5))
        #expect(throws: HTTPConnection.Failure.self) {
            try nowhere.send(method: "GET", target: "/", headers: [], body: [])
        }
    }
}

private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    func set(_ text: String) {
        lock.lock()
        stored = text
        lock.unlock()
    }
    var value: String? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
