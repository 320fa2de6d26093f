import Foundation
import Hashing
import Storage
import TestSupport
import Testing

/// Issue 32: one webhook endpoint blocked the night. Against real local receivers
/// (`Tests/webhook/receiver.py`) that never answer, trickle their answer or redirect, `recommend`
/// gives each attempt one deadline (here 1 s, by `--notify-timeout`), retries twice, never follows
/// a redirect, and ends in bounded time with exit 1 and the proposal filed; a receiver can verify
/// the signature over the exact body bytes with the shared secret.
@Suite(TestDatabase.enabled) struct WebhookDeliveryTests {
    struct Logged {
        let path: String
        let headers: [String: String]
        let body: String
        let time: Double
    }

    /// Runs `recommend` for alpha against a receiver in `mode`, with `arguments` added.
    static func run(_ mode: String, prefix: String, _ arguments: [String] = [],
                    check: (ChildProcess.Outcome, [Logged], Double, Daemon) throws -> Void) throws {
        try Daemon.with(prefix: prefix) { daemon in
            let root = try RepositoryPaths.root()
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: log) }
            let receiver = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", root.appendingPathComponent("Tests/webhook/receiver.py").path, mode, log.path])
            defer { _ = receiver.stop(timeout: 5) }
            let port = try #require(receiver.listeningPort(timeout: 20), "the receiver did not start: \(receiver.standardError)")

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("alpha-\(UUID().uuidString).json")
            try ReviewFixture.manifest.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try ReviewFixture.menurank(daemon, ["menus", "import", file.path]).status == 0)
            try ReviewFixture.insertEvents(app: daemon.alpha.app.appID, on: daemon.schema.connect())
            let started = Date()
            let outcome = try ReviewFixture.menurank(daemon, [
                "recommend", "--app", "alpha", "--as-of", ReviewFixture.asOf,
                "--notify-url", "http://127.0.0.1:\(port)/hooks/menurank", "--notify-timeout", "1s",
            ] + arguments)
            let elapsed = Date().timeIntervalSince(started)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let logged = try text.split(separator: "\n").map { line -> Logged in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return Logged(path: object["path"] as? String ?? "", headers: object["headers"] as? [String: String] ?? [:],
                              body: object["body"] as? String ?? "", time: object["time"] as? Double ?? 0)
            }
            try check(outcome, logged, elapsed, daemon)
        }
    }

    @Test(arguments: ["silent", "trickle"])
    func aReceiverThatDoesNotFinishAnsweringCostsThreeDeadlines(_ mode: String) throws {
        try Self.run(mode, prefix: "hook_\(mode)") { outcome, logged, elapsed, daemon throws in
            #expect(outcome.status == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.contains("could not be told of"), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("no complete answer within 1 s"), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("attempt 3 of 3"), "every failed attempt is logged")
            #expect(logged.count == 3, "three attempts, got \(logged.count)")
            // Each retry starts only after the previous attempt's deadline (1 s) and its pause (1 s, 2 s).
            if logged.count == 3 {
                #expect(logged[1].time - logged[0].time >= 1.9 && logged[2].time - logged[1].time >= 2.9,
                        "\(logged.map(\.time))")
            }
            // Bounded: before the fix a trickle kept recommend running for minutes.
            #expect(elapsed < 60, "recommend took \(elapsed) s")
            #expect(try daemon.count("SELECT count(*) FROM proposals WHERE status = 'pending'") == 1)
        }
    }

    @Test func aRedirectIsAFailureAndIsNotFollowed() throws {
        try Self.run("redirect", prefix: "hook_redirect") { outcome, logged, _, daemon throws in
            #expect(outcome.status == 1)
            #expect(outcome.standardError.contains("HTTP 307, a redirect to http://127.0.0.1:"), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("not followed"))
            #expect(logged.map(\.path) == ["/hooks/menurank"], "no POST to the Location, no retry: \(logged.map(\.path))")
            #expect(try daemon.count("SELECT count(*) FROM proposals WHERE status = 'pending'") == 1)
        }
    }

    @Test func theSignatureCoversTheTimestampAndTheExactBody() throws {
        let secret = "whsec-0123456789abcdef"
        try Self.run("ok", prefix: "hook_signed", ["--notify-secret", secret]) { outcome, logged, _, _ throws in
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let request = try #require(logged.first)
            #expect(logged.count == 1)
            let header = try #require(request.headers["menurank-signature"], "\(request.headers)")
            let parts = Dictionary(uniqueKeysWithValues: header.split(separator: ",").map {
                let pair = $0.split(separator: "=", maxSplits: 1)
                return (String(pair[0]), String(pair[1]))
            })
            let timestamp = try #require(parts["t"].flatMap { Int64($0) })
            #expect(abs(Double(timestamp) - request.time) < 60, "a fresh timestamp")
            let expected = HMACSHA256.authenticationCode(for: Array("\(timestamp).".utf8) + Array(request.body.utf8),
                                                         key: Array(secret.utf8))
            #expect(parts["v1"] == Hex.encode(expected))
            // Another body, timestamp or secret does not verify.
            #expect(parts["v1"] != Hex.encode(HMACSHA256.authenticationCode(for: Array("\(timestamp + 1).".utf8) + Array(request.body.utf8),
                                                                            key: Array(secret.utf8))))
            // The documented check (examples/webhook-signature/verify.py) accepts it, and refuses a changed body.
            let root = try RepositoryPaths.root()
            let verify = root.appendingPathComponent("examples/webhook-signature/verify.py").path
            let good = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", verify, secret, header],
                                            input: request.body)
            #expect(good.status == 0, "\(good.standardOutput) \(good.standardError)")
            let bad = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", verify, secret, header],
                                           input: request.body + " ")
            #expect(bad.status != 0)
        }
        let usage = try ChildProcess.menurank(["recommend", "--notify-secret", "0123456789abcdef0"], environment: [:])
        #expect(usage.status == 64)
    }
}
