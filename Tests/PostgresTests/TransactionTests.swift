import Postgres
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct TransactionTests {
    struct BodyFailure: Error, Equatable { let code: Int }

    @Test func commitKeepsAndErrorRollsBackWithTheOriginalError() throws {
        try TestDatabase.withSchema(prefix: "tx") { schema in
            let conn = try schema.connect()
            try conn.execute("create table t (id int primary key)")
            let value = try conn.withTransaction { tx in
                try tx.execute("insert into t values (\(1))")
                return 7
            }
            #expect(value == 7)
            #expect(throws: BodyFailure(code: 42)) {
                try conn.withTransaction { tx in
                    try tx.execute("insert into t values (\(2))")
                    throw BodyFailure(code: 42)
                }
            }
            // A database error inside: the same error comes out.
            let error = try #require(throws: PostgresError.self) {
                try conn.withTransaction { tx in
                    try tx.execute("insert into t values (\(3))")
                    try tx.execute("insert into t values (\(1))")
                }
            }
            #expect(error.sqlState == .uniqueViolation)
            #expect(try conn.query("select id from t order by id").map { try $0.decode(Int.self, at: 0) } == [1])
            #expect(!conn.isInTransaction)
        }
    }

    @Test func failedRollbackStillRethrowsTheBodyError() throws {
        try TestDatabase.withSchema(prefix: "tx") { schema in
            let conn = try schema.connect()
            let admin = try schema.connect()
            let pid = try conn.query("select pg_backend_pid()").first!.decode(Int.self, at: 0)
            #expect(throws: BodyFailure(code: 1)) {
                try conn.withTransaction { _ in
                    // The connection dies inside the body, so ROLLBACK fails too.
                    _ = try admin.query("select pg_terminate_backend(\(Int32(pid)))")
                    throw BodyFailure(code: 1)
                }
            }
            #expect(!conn.isAlive)
        }
    }

    @Test func caughtErrorInsideMakesCommitFailLoudly() throws {
        try TestDatabase.withSchema(prefix: "tx") { schema in
            let conn = try schema.connect()
            try conn.execute("create table t (id int primary key)")
            let error = try #require(throws: PostgresError.self) {
                try conn.withTransaction { tx in
                    try tx.execute("insert into t values (\(1))")
                    _ = try? tx.execute("insert into t values (\(1))")
                }
            }
            #expect(error.kind == .transaction)
            #expect(try conn.query("select count(*) from t").first!.decode(Int.self, at: 0) == 0)
        }
    }

    @Test func commitFailureIsReported() throws {
        try TestDatabase.withSchema(prefix: "tx") { schema in
            let conn = try schema.connect()
            try conn.execute(unsafeSQL: """
                create table t (id int primary key deferrable initially deferred);
                insert into t values (1);
                """)
            let error = try #require(throws: PostgresError.self) {
                try conn.withTransaction { tx in try tx.execute("insert into t values (\(1))") }
            }
            #expect(error.sqlState == .uniqueViolation)
            #expect(error.sql == "COMMIT")
            #expect(!conn.isInTransaction)
        }
    }
}
