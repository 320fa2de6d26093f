import Foundation
public import Postgres
public import Testing

/// The PostgreSQL the integration tests use, read from `DATABASE_URL` or else libpq's own
/// `PG*` variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, …).
///
/// Every integration suite carries `TestDatabase.enabled` and works inside
/// `TestDatabase.withSchema`:
///
/// ```swift
/// @Suite(TestDatabase.enabled) struct EventStoreTests {
///     @Test func insert() throws {
///         try TestDatabase.withSchema(prefix: "events") { schema in
///             let conn = try schema.connect()
///             …
///         }
///     }
/// }
/// ```
///
/// When `CI` or `MENURANK_REQUIRE_POSTGRES=1` is set the database is required: the suites run
/// even if it is unreachable and fail, so a skip can never hide an outage. Otherwise a missing
/// database skips them with a message saying how to start one.
public enum TestDatabase {
    /// `DATABASE_URL` if set and not empty, else `nil` (libpq's `PG*` variables).
    public static var conninfo: String? {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// True when an unreachable database must fail the tests: `CI` is set (to anything but
    /// `0`/`false`) or `MENURANK_REQUIRE_POSTGRES=1`.
    public static var requirePostgres: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let ci = environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" { return true }
        return environment["MENURANK_REQUIRE_POSTGRES"] == "1"
    }

    /// True when the tests run on a Citus coordinator and must distribute every schema they
    /// migrate (`MENURANK_DISTRIBUTED=1`, set by `scripts/test --citus`): fixtures pass it to
    /// `Migrator.migrate(on:distribute:)`, and the `menurank` binary reads the same variable.
    public static var distributed: Bool {
        ProcessInfo.processInfo.environment["MENURANK_DISTRIBUTED"] == "1"
    }

    /// Whether a connection succeeds (tried once per test process, with a 5 s timeout).
    public static let isReachable: Bool = probeError == nil

    /// Why the probe connection failed, if it did.
    public static let probeError: PostgresError? = {
        do {
            _ = try PostgresConnection(conninfo, parameters: ["connect_timeout": "5"])
            return nil
        } catch let error as PostgresError {
            return error
        } catch {
            return PostgresError(kind: .connection, message: "\(error)")
        }
    }()

    /// True when the integration tests should run: the database is required or reachable.
    public static var shouldRun: Bool { requirePostgres || isReachable }

    /// The trait for integration suites: runs them when `shouldRun`, else skips them saying why.
    public static var enabled: ConditionTrait {
        .enabled(
            if: shouldRun,
            "PostgreSQL is not reachable (run scripts/pg start and eval \"$(scripts/pg env)\", or set DATABASE_URL); set MENURANK_REQUIRE_POSTGRES=1 to make this a failure")
    }

    /// Opens a connection to the test database (not inside a test schema).
    /// - Throws: a clear error when the database is unreachable (which fails the test).
    public static func connect(parameters: [String: String] = [:]) throws -> PostgresConnection {
        var parameters = parameters
        if parameters["connect_timeout"] == nil { parameters["connect_timeout"] = "5" }
        parameters["application_name"] = parameters["application_name"] ?? "menurank-tests"
        do {
            return try PostgresConnection(conninfo, parameters: parameters)
        } catch var error as PostgresError {
            error.message = "the test database is unreachable"
                + (requirePostgres ? " and required (CI or MENURANK_REQUIRE_POSTGRES=1)" : "") + ": \(error.message)"
            throw error
        }
    }

    /// Creates a fresh schema with a unique name, runs `body` with it, and drops it (CASCADE)
    /// afterwards, also when `body` throws. Connections made through the `TestSchema` have
    /// `search_path = <schema>, public` (`public` holds the `hll` extension).
    public static func withSchema<T>(prefix: String = "test", _ body: (TestSchema) throws -> T) throws -> T {
        let admin = try connect()
        let cleanPrefix = String(prefix.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(30))
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let name = "\(cleanPrefix)_\(ProcessInfo.processInfo.processIdentifier)_\(suffix)"
        try admin.execute("CREATE SCHEMA \(identifier: name)")
        let schema = TestSchema(name: name, baseConninfo: conninfo)
        let value: T
        do {
            value = try body(schema)
            if distributed { try checkDistributed(schema: name, on: admin) }
        } catch {
            _ = try? admin.execute("DROP SCHEMA IF EXISTS \(identifier: name) CASCADE")
            throw error
        }
        try admin.execute("DROP SCHEMA IF EXISTS \(identifier: name) CASCADE")
        return value
    }

    /// On a Citus run, a schema that got menurank's `events` table but left it undistributed was
    /// migrated by a path that forgot `distribute:` (or `MENURANK_DISTRIBUTED`): its test ran on
    /// plain local tables and proved nothing about Citus, so it fails.
    static func checkDistributed(schema: String, on connection: PostgresConnection) throws {
        let undistributed = try connection.query("""
            SELECT to_regclass(quote_ident(\(schema)) || '.events') IS NOT NULL
               AND to_regclass(quote_ident(\(schema)) || '.schema_migrations') IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition
                               WHERE logicalrelid = to_regclass(quote_ident(\(schema)) || '.events')) AS undistributed
            """).first?.decode(Bool.self, column: "undistributed") ?? false
        if undistributed {
            throw PostgresError(
                kind: .query,
                message: "schema \(schema) was migrated but not distributed although MENURANK_DISTRIBUTED=1: migrate with distribute: TestDatabase.distributed")
        }
    }

    /// True when `restartServer()` may be used: the tests talk to this checkout's private
    /// cluster (`MENURANK_PG_DIR` or `.menurank/pg`, started by `scripts/pg`), on its port.
    public static var canRestartServer: Bool {
        guard let directory = try? privateClusterDirectory(),
            let portText = try? String(contentsOf: directory.appendingPathComponent("port"), encoding: .utf8),
            let port = Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)),
            let connection = try? connect(),
            let serverPort = try? connection.query("select inet_server_port() as port").first?.decode(Int?.self, column: "port")

        else { return false }
        return serverPort == port
    }

    /// The checkout's private cluster: `MENURANK_PG_DIR`, else `<root>/.menurank/pg`.
    static func privateClusterDirectory() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["MENURANK_PG_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        return try RepositoryPaths.root().appendingPathComponent(".menurank/pg")
    }

    /// Restarts the private cluster (`pg_ctl restart`, same port) and waits for it to accept
    /// connections again. Every suite running at the same time loses its connections, so
    /// prefer `ScratchServer` (a cluster of its own); guard uses with `canRestartServer`.
    public static func restartServer() throws {
        guard canRestartServer else {
            throw PostgresError(kind: .connection, message: "restartServer needs the checkout's private cluster (scripts/pg start)")
        }
        try ScratchServer.pgCtl(["-m", "fast", "-w", "restart"], directory: privateClusterDirectory())
    }
}
