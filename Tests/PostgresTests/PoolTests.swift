import Foundation
import Postgres
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct PoolTests {
    @Test func exhaustedPoolTimesOut() throws {
        try TestDatabase.withSchema(prefix: "pool") { schema in
            let pool = schema.makePool(maxConnections: 1, leaseTimeout: .milliseconds(200))
            defer { pool.close() }
            try pool.withConnection { conn in
                #expect(pool.statistics == .init(size: 1, inUse: 1, idle: 0, waiting: 0))
                let started = Date()
                let error = try #require(throws: PostgresError.self) {
                    try pool.withConnection { _ in }
                }
                #expect(error.kind == .poolTimeout)
                #expect(Date().timeIntervalSince(started) >= 0.19)
                _ = try conn.query("select 1")
            }
            #expect(pool.statistics == .init(size: 1, inUse: 0, idle: 1, waiting: 0))
        }
    }

    @Test func waitersAreServedWhenConnectionsComeBack() throws {
        try TestDatabase.withSchema(prefix: "pool") { schema in
            let pool = schema.makePool(maxConnections: 2, leaseTimeout: .seconds(10))
            defer { pool.close() }
            try pool.withConnection { try $0.execute("create table hits (n int)") }
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                do {
                    try pool.withConnection { conn in
                        try conn.execute("insert into hits select \(index) from pg_sleep(0.02)")
                    }
                } catch {
                    Issue.record(error)
                }
            }
            #expect(try pool.withConnection { try $0.query("select count(*) from hits").first!.decode(Int.self, at: 0) } == 8)
            #expect(pool.statistics.size <= 2)
            pool.close()
            #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
        }
    }

    @Test func brokenConnectionsAreReplaced() throws {
        try TestDatabase.withSchema(prefix: "pool") { schema in
            let pool = schema.makePool(maxConnections: 2)
            defer { pool.close() }
            let admin = try schema.connect()
            let first = try pool.withConnection { try $0.query("select pg_backend_pid()").first!.decode(Int32.self, at: 0) }
            _ = try admin.query("select pg_terminate_backend(\(first))")
            Thread.sleep(forTimeInterval: 0.1)
            // The idle connection died; the next lease gets a fresh one instead of an error.
            let second = try pool.withConnection { try $0.query("select pg_backend_pid()").first!.decode(Int32.self, at: 0) }
            #expect(second != first)
            // A connection dying in use: the borrower sees a connection error, the pool drops it.
            let error = try #require(throws: PostgresError.self) {
                try pool.withConnection { conn in
                    let pid = try conn.query("select pg_backend_pid()").first!.decode(Int32.self, at: 0)
                    _ = try admin.query("select pg_terminate_backend(\(pid))")
                    Thread.sleep(forTimeInterval: 0.1)
                    _ = try conn.query("select 1")
                }
            }
            #expect(error.isConnectionError)
            #expect(pool.statistics.size == 0)
            #expect(try pool.withConnection { try $0.query("select 1").count } == 1)
        }
    }

    /// Restarts a server of its own (not the shared test database, which other suites use at
    /// the same time) and checks the pool reconnects.
    @Test(.enabled(if: ScratchServer.isPossible, "needs PostgreSQL's server binaries for a scratch cluster"))
    func poolRecoversAfterServerRestart() throws {
        try ScratchServer.with { server in
            let pool = PostgresPool(configuration: .init(conninfo: server.url, maxConnections: 3, leaseTimeout: .seconds(5)))
            defer { pool.close() }
            try pool.withConnection { _ in try pool.withConnection { _ in try pool.withConnection { _ in } } }
            #expect(pool.statistics.idle == 3)
            try server.restart()
            for _ in 0..<5 {
                #expect(try pool.withConnection { try $0.query("select 42").first!.decode(Int.self, at: 0) } == 42)
            }
            // While the server is down, leases fail fast with a connection error, then recover.
            try server.stop()
            let down = try #require(throws: PostgresError.self) { try pool.withConnection { try $0.query("select 1") } }
            #expect(down.isConnectionError)
            try server.start()
            #expect(try pool.withConnection { try $0.query("select 1").count } == 1)
        }
    }
}
