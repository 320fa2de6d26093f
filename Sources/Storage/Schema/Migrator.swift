public import CivilTime
public import Foundation
public import Postgres
import Hashing

/// Applies the numbered SQL files of a directory (`0001_create_apps.sql`, …) in order.
///
/// Each file runs in one transaction together with its row in
/// `schema_migrations(version, name, checksum, applied_at)` (created in the first schema of
/// the `search_path`), so a file is either fully applied and recorded or not at all. A
/// transaction-level advisory lock (`pg_advisory_xact_lock`) keeps two migrators from racing.
/// Before anything runs, the applied rows are checked against the directory: a version the
/// directory does not have, or an applied file whose SHA-256 changed, is an error (except the
/// earlier texts of `earlierChecksums`). Running `migrate` again changes nothing.
///
/// Files must not hold their own `BEGIN`/`COMMIT` nor statements that cannot run inside a
/// transaction (`CREATE INDEX CONCURRENTLY`, `VACUUM`).
///
/// On a schema distributed over Citus (`Distributor`) migrations apply as on one node (Citus
/// carries DDL on distributed and reference tables to every shard), each in a transaction set up
/// by `Distributor.configure`, and the tables the migrations create are distributed right after
/// them by the same rules.
public struct Migrator: Sendable {
    /// One migration file.
    public struct Migration: Hashable, Sendable {
        public let version: Int
        public let name: String
        /// SHA-256 of the file, lower-case hex.
        public let checksum: String
        public let sql: String
        public let file: URL
    }

    /// A row of `schema_migrations`.
    public struct AppliedMigration: Hashable, Sendable {
        public let version: Int
        public let name: String
        public let checksum: String
        public let appliedAt: UTCTimestamp
    }

    /// What is applied and what is not yet.
    public struct Status: Sendable {
        public let applied: [AppliedMigration]
        public let pending: [Migration]
    }

    /// Earlier texts of migration files that were rewritten into an equivalent form, by version:
    /// a database that applied one of them has the schema the file now makes, so its recorded
    /// checksum is accepted. Only for a form Citus refuses on a distributed schema (it cannot be
    /// a new migration: the refused text must not run first).
    /// - 16: `ADD COLUMN allowed_origins ... CHECK (...)` in one statement, now the column and its
    ///   check as two.
    public static let earlierChecksums: [Int: Set<String>] = [
        16: ["eaa5a8d3781541ea6556694cf94e177b01c2f2a3891c445f44db689b2f634ba7"],
    ]

    /// Key of the advisory lock: the bytes of "menurank" read as a big-endian integer.
    static let lockKey: Int64 = 0x6D65_6E75_7261_6E6B

    public let directory: URL
    /// The directory's migrations, by ascending version.
    public let migrations: [Migration]

    /// Reads the migrations of `directory`: every `NNNN_name.sql` file (other files are
    /// ignored; a `.sql` file named otherwise is an error).
    /// - Throws: `MigratorError` (`.directoryNotFound`, `.badFile`, `.duplicateVersion`).
    public init(directory: URL) throws(MigratorError) {
        self.directory = directory
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigratorError(kind: .directoryNotFound, message: "cannot read the migrations directory \(directory.path)")
        }
        var migrations: [Migration] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            let stem = name.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), underscore != stem.startIndex,
                stem[..<underscore].allSatisfy(\.isASCII), let version = Int(stem[..<underscore]),
                stem.index(after: underscore) != stem.endIndex
            else {
                throw MigratorError(kind: .badFile, message: "\(name) is not named NNNN_name.sql")
            }
            let file = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw MigratorError(kind: .badFile, message: "cannot read \(file.path)", version: version)
            }
            guard let sql = String(data: data, encoding: .utf8) else {
                throw MigratorError(kind: .badFile, message: "\(file.path) is not UTF-8", version: version)
            }
            if let other = migrations.first(where: { $0.version == version }) {
                throw MigratorError(
                    kind: .duplicateVersion, message: "\(other.file.lastPathComponent) and \(name) share version \(version)",
                    version: version)
            }
            migrations.append(Migration(
                version: version, name: String(stem[stem.index(after: underscore)...]),
                checksum: Hex.encode(SHA256.hash([UInt8](data))), sql: sql, file: file))
        }
        guard !migrations.isEmpty else {
            throw MigratorError(kind: .directoryNotFound, message: "no NNNN_name.sql files in \(directory.path)")
        }
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Lists applied and pending migrations, after checking the applied ones against the files.
    /// - Throws: `MigratorError` (`.unknownAppliedVersion`, `.checksumMismatch`,
    ///   `.migrationFailed` for a database error).
    public func status(on connection: PostgresConnection) throws(MigratorError) -> Status {
        let applied = try databaseStep(version: nil) {
            guard try connection.query("select to_regclass('schema_migrations') is not null as present").first?
                .decode(Bool.self, column: "present") == true
            else { return [AppliedMigration]() }
            return try readApplied(connection)
        }
        try check(applied)
        let done = Set(applied.map(\.version))
        return Status(applied: applied, pending: migrations.filter { !done.contains($0.version) })
    }

    /// What `migrate(on:distribute:)` did.
    public struct Outcome: Sendable {
        /// The migrations applied now (empty when all were applied already).
        public var applied: [Migration]
        /// The distribution run after them, on a Citus coordinator (nil on a single PostgreSQL).
        public var distribution: Distributor.Report?
    }

    /// Applies every pending migration in version order, each in its own transaction; on a schema
    /// already distributed over Citus, distributes the tables they created.
    /// - Returns: the migrations applied now (empty when all were applied already).
    /// - Throws: `MigratorError`; migrations applied before the failing one stay applied.
    @discardableResult
    public func migrate(on connection: PostgresConnection) throws(MigratorError) -> [Migration] {
        try migrate(on: connection, distribute: false).applied
    }

    /// Applies every pending migration, then, with `distribute` or on a schema distributed before,
    /// places every table on the Citus cluster (`Distributor`).
    /// - Throws: `MigratorError`; `.citusUnavailable` before anything is applied when `distribute`
    ///   is asked of a database that is not a Citus coordinator.
    @discardableResult
    public func migrate(on connection: PostgresConnection, distribute: Bool) throws(MigratorError) -> Outcome {
        if distribute { _ = try Distributor.citusVersion(on: connection) }
        let distributed = try Distributor.isDistributed(on: connection)
        let applied = try apply(on: connection, distributed: distributed)
        guard distribute || distributed else { return Outcome(applied: applied, distribution: nil) }
        return Outcome(applied: applied, distribution: try Distributor().distribute(on: connection))
    }

    private func apply(on connection: PostgresConnection, distributed: Bool) throws(MigratorError) -> [Migration] {
        try databaseStep(version: nil) {
            try connection.withTransaction { transaction in
                try lock(transaction)
                try transaction.execute(unsafeSQL: """
                    create table if not exists schema_migrations (
                        version int primary key,
                        name text not null,
                        checksum text not null,
                        applied_at timestamptz not null default now()
                    )
                    """)
            }
        }
        var applied: [Migration] = []
        for migration in migrations {
            let ran = try databaseStep(version: migration.version) {
                try connection.withTransaction { transaction -> Bool in
                    try lock(transaction)
                    let recorded = try readApplied(transaction)
                    try check(recorded)
                    if recorded.contains(where: { $0.version == migration.version }) { return false }
                    if distributed {
                        try Distributor.configure(transaction)
                        // One statement at a time: Citus passes the text of some DDL (CREATE
                        // INDEX) to the workers as it came, and a text of several statements fails.
                        for statement in SQLScript.statements(migration.sql) {
                            try transaction.execute(unsafeSQL: statement)
                        }
                    } else {
                        try transaction.execute(unsafeSQL: migration.sql)
                    }
                    try transaction.execute("""
                        insert into schema_migrations (version, name, checksum)
                        values (\(migration.version), \(migration.name), \(migration.checksum))
                        """)
                    return true
                }
            }
            if ran { applied.append(migration) }
        }
        return applied
    }

    private func lock(_ connection: PostgresConnection) throws {
        _ = try connection.query("select pg_advisory_xact_lock(\(Self.lockKey))")
    }

    private func readApplied(_ connection: PostgresConnection) throws -> [AppliedMigration] {
        try connection.query("select version, name, checksum, applied_at from schema_migrations order by version").map { row in
            AppliedMigration(
                version: try row.decode(Int.self, column: "version"), name: try row.decode(String.self, column: "name"),
                checksum: try row.decode(String.self, column: "checksum"),
                appliedAt: try row.decode(UTCTimestamp.self, column: "applied_at"))

        }
    }

    private func check(_ applied: [AppliedMigration]) throws(MigratorError) {
        for row in applied {
            guard let migration = migrations.first(where: { $0.version == row.version }) else {
                throw MigratorError(
                    kind: .unknownAppliedVersion,
                    message: "the database has migration \(row.version) (\(row.name)) but \(directory.path) has no file for it; is this binary older than the database?",
                    version: row.version)
            }
            guard migration.checksum == row.checksum || Self.earlierChecksums[row.version, default: []].contains(row.checksum)
            else {
                throw MigratorError(
                    kind: .checksumMismatch,
                    message: "\(migration.file.lastPathComponent) changed after it was applied (checksum \(row.checksum) in the database, \(migration.checksum) now); add a new migration instead",
                    version: row.version)
            }
        }
    }

    /// Runs database work, wrapping a database error as `.migrationFailed`.
    private func databaseStep<T>(version: Int?, _ body: () throws -> T) throws(MigratorError) -> T {
        do {
            return try body()
        } catch let error as MigratorError {
            throw error
        } catch {
            let what = version.flatMap { v in migrations.first { $0.version == v } }.map { "\($0.file.lastPathComponent) failed" }
            throw MigratorError(
                kind: .migrationFailed, message: what ?? "reading or creating schema_migrations failed", version: version,
                underlying: error)
        }
    }
}
