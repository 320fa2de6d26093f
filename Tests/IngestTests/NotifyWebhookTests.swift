import Foundation
import HTTP
import Storage
import TestSupport
import Testing

/// `recommend --notify-url`: a real local HTTP receiver gets one POST per newly filed proposal, with
/// the proposal's Markdown diff; a run that files nothing posts nothing; a receiver that refuses
/// makes the run fail after filing.
@Suite(TestDatabase.enabled) struct NotifyWebhookTests {
    /// Records what it receives; answers `status`.
    final class Receiver: HTTPHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [HTTPRequest] = []
        let status: Int

        init(status: Int) { self.status = status }

        func handle(_ request: HTTPRequest) -> HTTPResponse {
            lock.lock()
            received.append(request)
            lock.unlock()
            return .json(status: status, body: "{}")
        }

        var requests: [HTTPRequest] { lock.lock(); defer { lock.unlock() }; return received }
    }

    static func withReceiver<T>(status: Int, _ body: (Receiver, UInt16) throws -> T) throws -> T {
        let receiver = Receiver(status: status)
        let server = HTTPServer(configuration: .init(port: 0), handler: receiver)
        let port = try server.start()
        defer { _ = server.shutdown(gracePeriod: .seconds(1)) }
        return try body(receiver, port)
    }

    @Test func eachNewlyFiledProposalIsPostedOnce() throws {
        try Daemon.with(prefix: "notify") { daemon in
            try Self.withReceiver(status: 204) { receiver, port in
                let url = "http://127.0.0.1:\(port)/hooks/menurank"
                let id = try ReviewFixture.pendingProposal(daemon, recommendArguments: ["--notify-url", url])
                let requests = receiver.requests
                try #require(requests.count == 1, "\(requests.count) requests")
                let request = requests[0]
                #expect(request.method == "POST")
                #expect(request.path == "/hooks/menurank")
                #expect(request.header("Content-Type") == "application/json")
                let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
                #expect(body["event"] as? String == "proposal.filed")
                #expect(body["app"] as? String == "alpha")
                #expect(body["element_type"] as? String == "mail.message")
                #expect(body["proposal_id"] as? Int == Int(id))
                let markdown = try #require(body["markdown"] as? String)
                #expect(markdown.contains("mail.message"))
                #expect(markdown.contains("Reply"))
                #expect((body["proposal"] as? [String: Any])?["proposed"] != nil)

                // The same run again files nothing new, so it posts nothing.
                let again = try ReviewFixture.menurank(daemon, ["recommend", "--app", "alpha", "--as-of", ReviewFixture.asOf,
                                                                "--notify-url", url])
                #expect(again.status == 0, "\(again.standardError)")
                #expect(receiver.requests.count == 1)
            }
        }
    }

    @Test func aRefusingReceiverFailsTheRunButKeepsTheProposal() throws {
        try Daemon.with(prefix: "notify_fail") { daemon in
            try Self.withReceiver(status: 404) { receiver, port in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("alpha-\(UUID().uuidString).json")
                try ReviewFixture.manifest.write(to: file, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: file) }
                #expect(try ReviewFixture.menurank(daemon, ["menus", "import", file.path]).status == 0)
                try ReviewFixture.insertEvents(app: daemon.alpha.app.appID, on: daemon.schema.connect())
                let run = try ReviewFixture.menurank(daemon, [
                    "recommend", "--app", "alpha", "--as-of", ReviewFixture.asOf,
                    "--notify-url", "http://127.0.0.1:\(port)/gone",
                ])
                #expect(run.status == 1)
                #expect(run.standardError.contains("HTTP 404"), "\(run.standardError)")
                #expect(receiver.requests.count == 1, "a 4xx is not retried")
                #expect(try daemon.count("SELECT count(*) FROM proposals WHERE status = 'pending'") == 1)
            }
        }
        let usage = try ChildProcess.menurank(["recommend", "--notify-url", "ftp://example.com/x"], environment: [:])
        #expect(usage.status == 64)
    }
}
