import Foundation
import Locking
import Postgres
import TestSupport
import Testing

/// `PostgresConnection.splitRead`: two reads at once on two connections, each in a snapshot of its
/// own, both finished before it returns or throws. Nothing is timed: each side waits (up to ten
/// minutes) for the other to have started, which reads one after the other would never do.
@Suite(TestDatabase.enabled) struct SplitReadTests {
    struct Failure: Error, Equatable {}

    static func meet(_ arrived: Locked<Int>) -> Bool {
        arrived.withLock { $0 += 1 }
        let deadline = Date().addingTimeInterval(600)
        while arrived.withLock({ $0 }) < 2 {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    /// What a side sees of its session: its backend, its isolation level and whether it is read-only.
    static func session(_ connection: PostgresConnection) throws -> (pid: Int, isolation: String, readOnly: String) {
        let row = try connection.query("""
            SELECT pg_backend_pid(), current_setting('transaction_isolation'), current_setting('transaction_read_only')
            """).first!
        return (try row.decode(Int.self, at: 0), try row.decode(String.self, at: 1), try row.decode(String.self, at: 2))
    }

    @Test func bothSidesReadAtOnceOnTwoBackendsEachInAReadOnlySnapshot() throws {
        try TestDatabase.withSchema(prefix: "split") { schema in
            let connection = try schema.connect()
            let helper = try schema.connect()
            try connection.execute("CREATE TABLE t (n int)")
            try connection.execute("INSERT INTO t SELECT generate_series(1, 10)")
            let arrived = Locked(0)
            let (mine, theirs) = try connection.splitRead({ connection in
                (try Self.session(connection), Self.meet(arrived),
                 try connection.query("SELECT sum(n) FROM t WHERE n % 2 = 0").first!.decode(Int.self, at: 0))
            }, alongside: helper) { helper in
                (try Self.session(helper), Self.meet(arrived),
                 try helper.query("SELECT sum(n) FROM t WHERE n % 2 = 1").first!.decode(Int.self, at: 0))
            }
            #expect(mine.1 && theirs.1)
            #expect(mine.0.pid != theirs.0.pid)
            #expect(mine.0.isolation == "repeatable read" && theirs.0.isolation == "repeatable read")
            #expect(mine.0.readOnly == "on" && theirs.0.readOnly == "on")
            #expect(mine.2 + theirs.2 == 55)
            #expect(!connection.isInTransaction && !helper.isInTransaction)
            // A write inside is refused (read-only), and the error comes out.
            let error = try #require(throws: PostgresError.self) {
                _ = try connection.splitRead({ try $0.execute("INSERT INTO t VALUES (0)") }, alongside: helper) { _ in 0 }
            }
            #expect(error.sqlState == SQLState("25006"))
        }
    }

    @Test func anErrorComesOutAfterBothSidesAreDoneAndBothConnectionsStayUsable() throws {
        try TestDatabase.withSchema(prefix: "split") { schema in
            let connection = try schema.connect()
            let helper = try schema.connect()
            let theirsDone = Locked(false)
            #expect(throws: Failure.self) {
                _ = try connection.splitRead({ _ -> Int in throw Failure() }, alongside: helper) { helper in
                    _ = try helper.query("SELECT pg_sleep(0.05)")
                    theirsDone.withLock { $0 = true }
                    return 1
                }
            }
            #expect(theirsDone.withLock { $0 })
            let error = try #require(throws: PostgresError.self) {
                _ = try connection.splitRead({ _ in 1 }, alongside: helper) { helper in
                    try helper.query("SELECT 1 / 0").first!.decode(Int.self, at: 0)
                }
            }
            #expect(error.sqlState == SQLState("22012"))
            #expect(!connection.isInTransaction && !helper.isInTransaction)
            #expect(try connection.query("SELECT 1").first!.decode(Int.self, at: 0) == 1)
            #expect(try helper.query("SELECT 2").first!.decode(Int.self, at: 0) == 2)
        }
    }

    @Test func refusesAConnectionInATransactionOrTheSameConnectionTwice() throws {
        try TestDatabase.withSchema(prefix: "split") { schema in
            let connection = try schema.connect()
            let helper = try schema.connect()
            #expect(throws: PostgresError.self) {
                _ = try connection.splitRead({ _ in 1 }, alongside: connection) { _ in 2 }
            }
            try helper.withTransaction { helper in
                #expect(throws: PostgresError.self) {
                    _ = try connection.splitRead({ _ in 1 }, alongside: helper) { _ in 2 }
                }
            }
        }
    }
}
