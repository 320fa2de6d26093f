import Foundation
import HTTP
import Locking
import TestSupport
import Testing

@Suite("Keep-alive concurrency")
struct KeepAliveConcurrencyTests {
    /// Which thread handled how many requests of which client.
    final class Ledger: Sendable {
        let entries = Locked<[(client: Int, thread: UInt)]>([])
    }

    @Test("32 keep-alive clients all get served, each on a thread of its own")
    func thirtyTwoClients() async throws {
        let clients = 32
        let requestsPerClient = 40
        let ledger = Ledger()
        let server = HTTPServer(configuration: .init(connectionLimit: 64)) { request in
            let client = Int(request.header("X-Client") ?? "") ?? -1
            ledger.entries.withLock { $0.append((client, currentThreadID())) }
            return .text("client \(client) request \(request.query("n") ?? "?")")
        }
        let port = try server.start()
        defer { server.shutdown(gracePeriod: .seconds(5)) }

        let connected = Barrier(parties: clients)
        let finished = Barrier(parties: clients)
        let outcomes = try await withThrowingTaskGroup(of: (ok: Int, connections: Int).self) { group in
            for index in 0..<clients {
                group.addTask {
                    try await onThread {
                        let client = HTTPClient(port: port)
                        var ok = 0
                        for n in 0..<requestsPerClient {
                            let response = try client.send(method: "POST", path: "/work?n=\(n)",
                                                           headers: ["X-Client": String(index)],
                                                           body: Array("payload \(n)".utf8))
                            if response.status == 200, response.text == "client \(index) request \(n)" { ok += 1 }
                            // Every connection is open before anyone goes on, so all are served at once.
                            if n == 0 { connected.arriveAndWait() }
                        }
                        // Keep the connection (and its server thread) open until everyone is done.
                        finished.arriveAndWait()
                        return (ok, client.connectionsOpened)
                    }
                }
            }
            var all: [(ok: Int, connections: Int)] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }

        #expect(outcomes.count == clients)
        #expect(outcomes.allSatisfy { $0.ok == requestsPerClient })
        #expect(outcomes.allSatisfy { $0.connections == 1 })

        let entries = ledger.entries.withLock { $0 }
        #expect(entries.count == clients * requestsPerClient)
        var perThread: [UInt: Int] = [:]
        var threadsPerClient: [Int: Set<UInt>] = [:]
        for entry in entries {
            perThread[entry.thread, default: 0] += 1
            threadsPerClient[entry.client, default: []].insert(entry.thread)
        }
        // Thread per connection: one thread per client, no thread carrying more than one
        // connection's share, and every client served.
        #expect(Set(threadsPerClient.keys) == Set(0..<clients))
        #expect(threadsPerClient.values.allSatisfy { $0.count == 1 })
        #expect(perThread.count == clients)
        #expect(perThread.values.allSatisfy { $0 == requestsPerClient })
    }
}
