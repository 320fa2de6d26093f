import Foundation
import HTTP
import Ingest
import TestSupport
import Testing

/// Behind a reverse proxy: the per-address limits count the client address the proxy forwarded
/// (only when the connection comes from a trusted proxy), and a slow body cannot hold a
/// connection for long. The last test runs the real Caddy with the project's `deploy/Caddyfile`
/// in front of the real daemon. Clients pick their source address on the loopback (127.0.0.x);
/// every wait is generous and nothing measures a duration.
@Suite(TestDatabase.enabled) struct TrustedProxyTests {
    /// The head of a POST whose body (of `length` bytes) is not sent yet.
    static func head(key: String, length: Int, forwardedFor: String? = nil) -> String {
        "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/json\r\n"
            + (forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? "") + "Content-Length: \(length)\r\n\r\n"
    }

    /// A key of the right shape that no app has.
    static func madeUpKey() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        return "mrk_w_" + String((0..<32).map { _ in alphabet.randomElement()! })
    }

    /// A body of exactly `length` bytes: one event, padded with spaces.
    static func body(length: Int) -> String {
        let batch = Payload.batch([Payload.event()])
        return batch + String(repeating: " ", count: max(0, length - batch.utf8.count))
    }

    @Test func aTrustedProxysRequestsCountUnderTheForwardedAddress() throws {
        try Daemon.with(prefix: "proxied", configure: { configuration in
            configuration.connectionLimitPerAddress = 4
            configuration.trustedProxies = ["127.0.0.0/30"]  // 127.0.0.1-3
            configuration.bodyTimeout = .seconds(600)
            configuration.minBodyRate = 0
        }) { daemon in
            // Through the "proxy" (127.0.0.2), six requests of one client, their bodies held back;
            // the left entry is the client's own claim, the proxy appended what it saw.
            let held = try (0..<6).map { _ in try HTTPClient.connected(port: daemon.port, source: "127.0.0.2") }
            for connection in held {
                connection.write(Self.head(key: daemon.alpha.writeKey, length: 1000,
                                           forwardedFor: "198.51.100.9, 203.0.113.7"))
            }
            Thread.sleep(forTimeInterval: 1)
            // Another forwarded client, through the same proxy, is served meanwhile.
            let other = try daemon.post(Payload.batch(Payload.events(2)),
                                        headers: ["Content-Type": "application/json", "X-Forwarded-For": "203.0.113.8"],
                                        client: HTTPClient(port: daemon.port, source: "127.0.0.2"))
            #expect(other.status == 200, "\(other.text)")
            // An untrusted peer's X-Forwarded-For counts for nothing: its own connections count.
            let direct = try (0..<5).map { _ in try HTTPClient.connected(port: daemon.port, source: "127.0.0.9") }
            for connection in direct {
                connection.write(Self.head(key: daemon.alpha.writeKey, length: 1000, forwardedFor: "203.0.113.50"))
            }
            #expect(direct[4].waitForClose(timeout: .seconds(60)), "a fifth connection from one untrusted address stayed open")
            #expect(direct.prefix(4).allSatisfy { !$0.waitForClose(timeout: .milliseconds(200)) })
            // The bodies: four of the client's six requests were admitted, two refused by its limit.
            for connection in held + direct.prefix(4) { connection.write(Self.body(length: 1000)) }
            let statuses = held.map { $0.readResponse(timeout: .seconds(60))?.status ?? 0 }.sorted()
            #expect(statuses == [200, 200, 200, 200, 429, 429], "\(statuses)")
            #expect(direct.prefix(4).allSatisfy { $0.readResponse(timeout: .seconds(60))?.status == 200 })
            // Their slots are free again once answered.
            var again = 0
            for _ in 0..<50 where again != 200 {
                again = try daemon.post(Payload.batch(Payload.events(1)),
                                        headers: ["Content-Type": "application/json", "X-Forwarded-For": "203.0.113.7"],
                                        client: HTTPClient(port: daemon.port, source: "127.0.0.2")).status
                if again != 200 { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(again == 200)
            #expect(try daemon.count("SELECT count(*)::int FROM events") == 2 + 4 + 4 + 1)
        }
    }

    /// A body slower than the minimum rate is cut long before the body deadline, whether its
    /// request was admitted or refused from its head (a made-up key, whose body is drained).
    @Test func aBodySlowerThanTheMinimumRateIsCut() throws {
        try Daemon.with(prefix: "slowbody", configure: { configuration in
            configuration.bodyTimeout = .seconds(600)
            configuration.connectionTimeout = .seconds(600)
            configuration.minBodyRate = 1024
        }) { daemon in
            let admitted = try HTTPClient.connected(port: daemon.port, source: "127.0.0.2")
            admitted.write(Self.head(key: daemon.alpha.writeKey, length: 200_000) + "{")
            let refused = try HTTPClient.connected(port: daemon.port, source: "127.0.0.3")
            refused.write(Self.head(key: Self.madeUpKey(), length: 200_000))
            // One byte every 2 s, as the attack did: both are cut, far inside the 600 s deadline.
            var open = [admitted, refused]
            let giveUp = Date().addingTimeInterval(120)
            while !open.isEmpty, Date() < giveUp {
                open = open.filter { $0.write(" ") && !$0.waitForClose(timeout: .seconds(2)) }
            }
            #expect(open.isEmpty)
            let metrics = try daemon.get("/metrics").text.split(separator: "\n")
            let slow = metrics.first { $0.hasPrefix("menurank_http_slow_body_connections ") }
            #expect(slow.flatMap { Double($0.split(separator: " ").last ?? "") } == 2, "\(String(describing: slow))")
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
        }
    }

    /// The attack of issue 32 through the real Caddy and the project's Caddyfile: 80 connections
    /// with made-up keys, each declaring a 200,000-byte body and sending a byte every 2 s. A device
    /// posting through Caddy meanwhile gets every batch stored.
    @Test func slowMadeUpKeysThroughCaddyDoNotStopAGoodDevice() throws {
        try Daemon.with(prefix: "caddy", configure: { configuration in
            configuration.trustedProxies = ["127.0.0.1"]
        }) { daemon in
            let caddy = try CaddyProcess(upstreamPort: daemon.port)
            defer { caddy.stop() }
            var attackers = try (0..<80).map { _ in try HTTPClient.connected(port: caddy.port, source: "127.0.0.66") }
            for connection in attackers { connection.write(Self.head(key: Self.madeUpKey(), length: 200_000)) }
            Thread.sleep(forTimeInterval: 3)
            var statuses: [Int] = []
            var accepted = 0
            for _ in 0..<10 {
                // A body byte every 2 s on every attacking connection still open.
                attackers = attackers.filter { $0.write("x") }
                let device = HTTPClient(port: caddy.port, timeout: .seconds(60), source: "127.0.0.77")
                let reply = try daemon.post(Payload.batch(Payload.events(5)), client: device)
                statuses.append(reply.status)
                accepted += max(0, reply.accepted)
                Thread.sleep(forTimeInterval: 2)
            }
            #expect(statuses == Array(repeating: 200, count: 10), "\(statuses)")
            #expect(accepted == 50)
            #expect(try daemon.count("SELECT count(*)::int FROM events") == 50)
        }
    }
}

/// The real Caddy (Debian's `caddy`, which scripts/deps installs) running the project's
/// `deploy/Caddyfile` on a free port, in plain HTTP, in front of `upstreamPort`.
final class CaddyProcess {
    let port: UInt16
    private let process: ChildProcess
    private let home: URL

    init(upstreamPort: UInt16) throws {
        port = try Self.freePort()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("caddy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let caddyfile = try RepositoryPaths.root().appendingPathComponent("deploy/Caddyfile").path
        process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/caddy"),
                                   ["run", "--config", caddyfile, "--adapter", "caddyfile"],
                                   environment: [
                                       "MENURANK_DOMAIN": "http://:\(port)",
                                       "MENURANK_UPSTREAM": "127.0.0.1:\(upstreamPort)",
                                       "MENURANK_CADDY_ADMIN": "off",
                                       "HOME": home.path, "XDG_DATA_HOME": home.path, "XDG_CONFIG_HOME": home.path,
                                   ])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let reply = try? HTTPClient(port: port, timeout: .seconds(2)).send(method: "GET", path: "/healthz"),
               reply.status == 200 {
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let output = process.standardError
        _ = process.stop(timeout: 10)
        throw CaddyFailure(message: "Caddy did not serve /healthz: \(output.suffix(2000))")
    }

    func stop() {
        _ = process.stop(timeout: 10)
        try? FileManager.default.removeItem(at: home)
    }

    struct CaddyFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A port nothing listens on now (bound on port 0 and closed again).
    static func freePort() throws -> UInt16 {
        let server = HTTPServer(configuration: .init(port: 0)) { _ in .text("") }
        let port = try server.start()
        server.shutdown(gracePeriod: .zero)
        return port
    }
}
