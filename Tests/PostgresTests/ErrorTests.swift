import Foundation
import Postgres
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct ErrorTests {
    @Test func uniqueViolationIsCaughtByClassAndCarriesDetails() throws {
        try TestDatabase.withSchema(prefix: "err") { schema in
            let conn = try schema.connect()
            try conn.execute("create table apps (id int primary key, name text not null)")
            try conn.execute("insert into apps values (\(1), \("secret-name"))")
            var matchedClass = false
            do {
                try conn.execute("insert into apps values (\(1), \("secret-name"))")
            } catch SQLState.integrityConstraintViolation {
                matchedClass = true
            }
            #expect(matchedClass)
            let error = try #require(throws: PostgresError.self) {
                try conn.execute("insert into apps values (\(1), \("secret-name"))")
            }
            #expect(error.kind == .query)
            #expect(error.sqlState == .uniqueViolation)
            #expect(error.constraint == "apps_pkey")
            #expect(error.table == "apps")
            #expect(error.severity == "ERROR")
            #expect(error.detail?.contains("already exists") == true)
            #expect(error.sql == "insert into apps values ($1, $2)")
            #expect(!error.isConnectionError)
            #expect(!error.description.contains("secret-name"))
            // Not-null names the column.
            let noName: String? = nil
            let insertNull: PostgresQuery = "insert into apps values (\(2), \(noName))"
            let notNull = try #require(throws: PostgresError.self) {
                try conn.execute(insertNull)
            }
            #expect(notNull.sqlState == .notNullViolation)
            #expect(notNull.column == "name")
            // The connection is still usable.
            #expect(try conn.query("select count(*) from apps").first!.decode(Int.self, at: 0) == 1)
        }
    }

    @Test func undefinedTableAndSyntaxErrors() throws {
        try TestDatabase.withSchema(prefix: "err") { schema in
            let conn = try schema.connect()
            let missing = try #require(throws: PostgresError.self) { try conn.query("select * from nope") }
            #expect(missing.sqlState == .undefinedTable)
            let syntax = try #require(throws: PostgresError.self) { try conn.execute(unsafeSQL: "selec 1") }
            #expect(syntax.sqlState == .syntaxError)
            #expect(SQLState.syntaxErrorOrAccessRuleViolation ~= syntax.sqlState!)
        }
    }

    @Test func decodingErrorsNameColumnTypeAndSwiftType() throws {
        try TestDatabase.withSchema(prefix: "err") { schema in
            let conn = try schema.connect()
            let row = try #require(try conn.query("select 'abc'::text as label, null::int4 as missing").first)
            let mismatch = try #require(throws: PostgresError.self) { try row.decode(Int.self, column: "label") }
            #expect(mismatch.kind == .decoding)
            #expect(mismatch.column == "label")
            #expect(mismatch.message.contains("\"label\""))
            #expect(mismatch.message.contains("text"))
            #expect(mismatch.message.contains("Int"))
            let null = try #require(throws: PostgresError.self) { try row.decode(Int.self, at: 1) }
            #expect(null.message.contains("\"missing\"") && null.message.contains("int4") && null.message.contains("NULL"))
            #expect(try row.decode(Int?.self, at: 1) == nil)
            let unknown = try #require(throws: PostgresError.self) { try row.decode(Int.self, column: "nope") }
            #expect(unknown.message.contains("label"))
            // Out-of-range numeric.
            let big = try #require(try conn.query("select 99999999999999999999::numeric as big").first)
            let range = try #require(throws: PostgresError.self) { try big.decode(Int64.self, at: 0) }
            #expect(range.message.contains("numeric") && range.message.contains("Int64"))
        }
    }

    @Test func unreachableServerIsAConnectionError() {
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresConnection("postgresql://nobody@127.0.0.1:1/none", parameters: ["connect_timeout": "2"])
        }
        #expect(error?.kind == .connection)
        #expect(error?.isConnectionError == true)
    }

    @Test func terminatedSessionIsAConnectionError() throws {
        try TestDatabase.withSchema(prefix: "err") { schema in
            let victim = try schema.connect()
            let pid = try victim.query("select pg_backend_pid()").first!.decode(Int32.self, at: 0)
            let admin = try schema.connect()
            _ = try admin.query("select pg_terminate_backend(\(pid))")
            Thread.sleep(forTimeInterval: 0.1)
            #expect(!victim.isAlive)
            let error = try #require(throws: PostgresError.self) { try victim.query("select 1") }
            #expect(error.isConnectionError)
        }
    }
}
