import Foundation
import Postgres
import Testing
import TestSupport

/// A storage failure through the real binary: without `--verbose` one clear line with no SQL, no
/// SQLSTATE and no server detail, exit 1; with `--verbose` (or MENURANK_VERBOSE) the underlying
/// error in full below it. The database here is made read-only for the command's session only
/// (`default_transaction_read_only` in its connection options), so `apps create` meets a real
/// SQLSTATE 25006 from PostgreSQL.
@Suite(TestDatabase.enabled) struct VerboseErrorTests {
    /// The schema's connection string with its sessions read-only.
    static func readOnly(_ schema: TestSchema) -> String {
        schema.connectionString
            .replacingOccurrences(of: "-c%20search_path", with: "-c%20default_transaction_read_only%3Don%20-c%20search_path")
            .replacingOccurrences(of: "-c search_path", with: "-c default_transaction_read_only=on -c search_path")
    }

    @Test func aStorageFailureIsOneLineAndVerboseAddsTheServersDetail() throws {
        try TestDatabase.withSchema(prefix: "cliverbose") { schema in
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: Self.readOnly(schema))

            let plain = try cli.run(["apps", "create", "shop"])
            #expect(plain.status == 1)
            let lines = plain.error.split(separator: "\n", omittingEmptySubsequences: true)
            #expect(lines == ["Error: database unavailable: the database is read-only"], "\(plain.error)")
            for hidden in ["25006", "INSERT", "SQL", "read-only transaction"] {
                #expect(!plain.error.contains(hidden), "\(hidden) in \(plain.error)")
            }

            for verbose in [try cli.run(["apps", "create", "shop", "--verbose"]),
                            try cli.run(["apps", "create", "shop"], environment: ["MENURANK_VERBOSE": "1"])] {
                #expect(verbose.status == 1)
                #expect(verbose.error.hasPrefix("Error: database unavailable: the database is read-only\n"), "\(verbose.error)")
                #expect(verbose.error.contains("25006") && verbose.error.contains("read-only transaction"), "\(verbose.error)")
                #expect(verbose.error.contains("INSERT INTO apps"), "\(verbose.error)")
            }
            // Nothing was stored.
            #expect(try schema.connect().query("SELECT count(*) FROM apps")[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test func aDatabaseThatCannotBeReachedIsOneLine() throws {
        let cli = CLIRunner(database: "postgresql://menurank@127.0.0.1:1/none?connect_timeout=2")
        let plain = try cli.run(["apps", "list"])
        #expect(plain.status == 1)
        #expect(plain.error.split(separator: "\n").count == 1, "\(plain.error)")
        #expect(plain.error.hasPrefix("Error: ") && plain.error.contains("127.0.0.1"), "\(plain.error)")
        let verbose = try cli.run(["apps", "list", "--verbose"])
        #expect(verbose.status == 1)
        #expect(verbose.error.split(separator: "\n").count > 1, "\(verbose.error)")
    }
}
