import Foundation
import Postgres
import Testing
import TestSupport

/// Cutting a migration file into statements (used on a distributed schema, where Citus needs DDL
/// one statement at a time).
struct SQLScriptTests {
    @Test func cutsAtTopLevelSemicolonsOnly() {
        let script = """
            -- a comment; not a statement
            CREATE TABLE a (x text DEFAULT 'it''s; fine', "odd;name" int);
            /* block; /* nested; */ still comment; */
            CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;
            DO $body$ BEGIN PERFORM 'x;y'; RAISE NOTICE $$a;b$$; END $body$;
            SELECT E'back\\'slash;', $1, a$b FROM t;
            COMMENT ON TABLE a IS 'last; one'
            ;; -- trailing
            """
        #expect(SQLScript.statements(script) == [
            "-- a comment; not a statement\nCREATE TABLE a (x text DEFAULT 'it''s; fine', \"odd;name\" int)",
            "/* block; /* nested; */ still comment; */\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$",
            "DO $body$ BEGIN PERFORM 'x;y'; RAISE NOTICE $$a;b$$; END $body$",
            "SELECT E'back\\'slash;', $1, a$b FROM t",
            "COMMENT ON TABLE a IS 'last; one'",
        ])
        #expect(SQLScript.statements("").isEmpty)
        #expect(SQLScript.statements("-- only a comment\n/* and another */\n").isEmpty)
        #expect(SQLScript.statements("SELECT 1") == ["SELECT 1"])
    }

    /// Every migration of sql/ cuts into non-empty statements that, put back together, hold the
    /// whole file but for whitespace, separating semicolons and comments between statements.
    @Test func migrationFilesCutWhole() throws {
        let directory = try RepositoryPaths.root().appendingPathComponent("sql")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".sql") {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            let statements = SQLScript.statements(text)
            #expect(!statements.isEmpty, "\(name)")
            // Put back together, the statements hold every character of the file but whitespace,
            // comments outside statements and the separating semicolons.
            let squeezed = { (s: String) in s.filter { !$0.isWhitespace && $0 != ";" } }
            let joined = squeezed(statements.joined())
            #expect(squeezed(text).hasSuffix(joined) || squeezed(text).contains(joined), "\(name)")
            for statement in statements { #expect(!statement.hasSuffix(";"), "\(name)") }
        }
    }
}
