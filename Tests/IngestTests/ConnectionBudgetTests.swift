import Foundation
import HTTP
import Ingest
import TestSupport
import Testing

/// One address cannot lock others out, however it holds its connections (idle, a header byte at
/// a time, a body byte at a time), and request bodies in memory are bounded over all connections.
/// The attacker connects from 127.0.0.2, the legitimate client from 127.0.0.1. Deadlines are set
/// small; every wait is generous and nothing measures a duration.
@Suite(TestDatabase.enabled) struct ConnectionBudgetTests {
    static func configure(_ configuration: inout IngestConfiguration) {
        configuration.connectionLimit = 40
        configuration.connectionLimitPerAddress = 8
        configuration.headerTimeout = .seconds(2)
        configuration.bodyTimeout = .seconds(2)
        // Far longer than the test: only the total-time deadlines may close the attacker's connections.
        configuration.connectionTimeout = .seconds(600)
    }

    /// Opens `count` connections from 127.0.0.2 (the server may close any of them at once).
    static func attack(port: UInt16, count: Int) throws -> [HTTPClient] {
        try (0..<count).map { _ in try HTTPClient.connected(port: port, source: "127.0.0.2") }
    }

    /// Keeps sending `next()` on every open connection every 200 ms until all are closed or
    /// `timeout` passes; the connections still open then.
    static func trickle(_ connections: [HTTPClient], timeout: Double, next: () -> String) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        var open = connections
        while !open.isEmpty, Date() < deadline {
            let piece = next()
            open = open.filter { connection in
                connection.write(piece) && !connection.waitForClose(timeout: .milliseconds(5))
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return open.count
    }

    @Test func slowHeadersFromOneAddressNeitherStarveOthersNorLastForEver() throws {
        try Daemon.with(configure: Self.configure) { daemon in
            // More connections than the whole server allows, all from one address, trickling a head.
            let attackers = try Self.attack(port: daemon.port, count: 60)
            for connection in attackers { connection.write("POST /v1/events HTTP/1.1\r\nHost: x\r\n") }
            // A legitimate client is served meanwhile.
            let reply = try daemon.post(Payload.batch(Payload.events(3)))
            #expect(reply.status == 200, "\(reply.status) \(reply.text)")
            // A header line every 200 ms does not keep a connection: the head has 2 s in total.
            var line = 0
            let stillOpen = Self.trickle(attackers, timeout: 120) {
                line += 1
                return "X-Slow-\(line): y\r\n"
            }
            #expect(stillOpen == 0)
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
        }
    }

    @Test func idleConnectionsFromOneAddressDoNotStarveOthers() throws {
        try Daemon.with(configure: Self.configure) { daemon in
            let attackers = try Self.attack(port: daemon.port, count: 60)
            let reply = try daemon.post(Payload.batch(Payload.events(2)))
            #expect(reply.status == 200, "\(reply.status) \(reply.text)")
            // Idle connections are closed by the header deadline too.
            for connection in attackers { #expect(connection.waitForClose(timeout: .seconds(120))) }
        }
    }

    @Test func aSlowBodyIsCutAtItsDeadline() throws {
        try Daemon.with(configure: Self.configure) { daemon in
            let slow = try HTTPClient.connected(port: daemon.port, source: "127.0.0.2")
            slow.write("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(daemon.alpha.writeKey)\r\n"
                      + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
            // A byte every 200 ms would take hours; the body has 2 s in total.
            #expect(Self.trickle([slow], timeout: 120) { " " } == 0)
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
        }
    }

    /// A client that takes its responses very slowly (100 bytes every 200 ms from a small receive
    /// buffer, with far more responses asked for than the sockets' buffers hold) is cut off at the
    /// response deadline, although it never stops reading; others are served meanwhile.
    @Test func aSlowReaderIsCutAtTheResponseDeadline() throws {
        try Daemon.with(configure: Self.configure) { daemon in
            let page = try daemon.get("/admin")
            #expect(page.status == 200 && page.text.utf8.count > 4096)
            let slow = try HTTPClient.connected(port: daemon.port, source: "127.0.0.2", receiveBufferBytes: 4096)
            // Pipelined, more than libmicrohttpd reads ahead: some stay unread when it closes.
            let requests = 3000
            #expect(slow.write(String(repeating: "GET /admin HTTP/1.1\r\nHost: x\r\n\r\n", count: requests)))
            var taken = 0
            var servedMeanwhile = false
            let deadline = Date().addingTimeInterval(120)
            while !slow.serverHungUp, Date() < deadline {
                taken += slow.take(upTo: 100)
                if !servedMeanwhile {
                    let reply = try daemon.post(Payload.batch(Payload.events(2)))
                    #expect(reply.status == 200, "\(reply.status) \(reply.text)")
                    servedMeanwhile = true
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
            #expect(slow.serverHungUp, "the slow reader was never cut off")
            #expect(servedMeanwhile)
            taken += slow.drain(timeout: .seconds(60))
            #expect(taken < requests * page.text.utf8.count, "took \(taken) bytes: every response went out")
            #expect(try daemon.post(Payload.batch(Payload.events(1))).status == 200)
            #expect(try daemon.count("SELECT count(*) FROM events") == 3)
        }
    }

    @Test func bodiesInFlightAreCappedWith503AndRetryAfter() throws {
        try Daemon.with(configure: { configuration in
            configuration.maxBodyBytes = 64 << 10
            configuration.maxInFlightBodyBytes = 128 << 10
            configuration.bodyTimeout = .seconds(600)
        }) { daemon in
            let key = daemon.alpha.writeKey
            func head(_ length: Int) -> String {
                "POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
            }
            // Two full-size bodies announced and held back take the whole budget.
            let holders = try (0..<2).map { _ in try HTTPClient.connected(port: daemon.port) }
            for holder in holders { holder.write(head(64 << 10) + "{") }
            // Wait until both heads are in (each holder's first byte of body has been accepted).
            Thread.sleep(forTimeInterval: 0.5)
            var batch = Payload.batch(Payload.events(5))
            let padded = batch + String(repeating: " ", count: (64 << 10) - batch.utf8.count)
            var refused: HTTPClientResponse?
            for _ in 0..<200 where refused?.status != 503 {
                let third = try HTTPClient.connected(port: daemon.port)
                third.write(head(padded.utf8.count) + padded)
                refused = third.readResponse(timeout: .seconds(60))
                if refused?.status != 503 { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(refused?.status == 503, "\(String(describing: refused?.status)) \(String(describing: refused?.text))")
            #expect(refused?.header("Retry-After") != nil)
            #expect(refused?.text.contains("server_busy") == true)
            // Logged once, as every 5xx is, with its request id and cause.
            let requestID = refused?.header("X-Request-Id") ?? "?"
            let logged = daemon.logLines.all.filter {
                $0.contains("request failed") && $0.split(separator: " ").contains("request_id=\(requestID)")
            }
            #expect(logged.count == 1, "\(logged)")
            #expect(logged.first?.contains("in-flight body budget exhausted") == true, "\(logged)")
            // A holder that goes away gives its share back.
            holders[0].close()
            batch = Payload.batch(Payload.events(4))
            var accepted = 0
            for _ in 0..<200 where accepted == 0 {
                let reply = try daemon.post(batch)
                if reply.status == 200 { accepted = reply.accepted } else { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(accepted == 4)
            holders[1].close()
        }
    }
}
