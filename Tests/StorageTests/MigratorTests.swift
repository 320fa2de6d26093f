import Foundation
import Locking
import Postgres
import Storage
import TestSupport
import Testing

/// A fixture directory of migration files in a temporary folder, removed afterwards.
struct MigrationFixture {
    let directory: URL

    init(_ files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try write(files)
    }

    func write(_ files: [String: String]) throws {
        for (name, sql) in files {
            try Data(sql.utf8).write(to: directory.appendingPathComponent(name))
        }
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }

    func delete() { try? FileManager.default.removeItem(at: directory) }
}

@Suite struct MigratorFileTests {
    @Test func readsNumberedFilesInOrderAndIgnoresOthers() throws {
        let fixture = try MigrationFixture([
            "0002_add_column.sql": "alter table a add column b int;",
            "0001_create.sql": "create table a (id int);",
            "0010_tenth.sql": "select 1;",
            "README.md": "not a migration",
        ])
        defer { fixture.delete() }
        let migrator = try Migrator(directory: fixture.directory)
        #expect(migrator.migrations.map(\.version) == [1, 2, 10])
        #expect(migrator.migrations.map(\.name) == ["create", "add_column", "tenth"])
        #expect(migrator.migrations[0].sql == "create table a (id int);")
    }

    @Test func checksumIsSHA256() throws {
        let fixture = try MigrationFixture(["0001_a.sql": "abc"])
        defer { fixture.delete() }
        let migrator = try Migrator(directory: fixture.directory)
        #expect(migrator.migrations[0].checksum == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let empty = try MigrationFixture(["0001_a.sql": ""])
        defer { empty.delete() }
        #expect(try Migrator(directory: empty.directory).migrations[0].checksum
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = try MigrationFixture(["0001_a.sql": String(repeating: "a", count: 1000)])
        defer { long.delete() }
        #expect(try Migrator(directory: long.directory).migrations[0].checksum
            == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test(arguments: [["1.sql": "x"], ["0001-create.sql": "x"], ["abcd_x.sql": "x"], ["0001_.sql": "x"]])
    func badNamesAreRefused(files: [String: String]) throws {
        let fixture = try MigrationFixture(files)
        defer { fixture.delete() }
        let error = try #require(throws: MigratorError.self) { try Migrator(directory: fixture.directory) }
        #expect(error.kind == .badFile)
    }

    @Test func duplicateVersionsAndEmptyDirectoriesAreRefused() throws {
        let duplicate = try MigrationFixture(["0001_a.sql": "x", "001_b.sql": "y"])
        defer { duplicate.delete() }
        #expect(try #require(throws: MigratorError.self) { try Migrator(directory: duplicate.directory) }.kind == .duplicateVersion)
        let empty = try MigrationFixture([:])
        defer { empty.delete() }
        #expect(try #require(throws: MigratorError.self) { try Migrator(directory: empty.directory) }.kind == .directoryNotFound)
    }

    @Test func locatesTheDirectory() throws {
        let checkout = try MigrationFixture([:])
        defer { checkout.delete() }
        let sql = checkout.directory.appendingPathComponent("sql")
        try FileManager.default.createDirectory(at: sql, withIntermediateDirectories: true)
        try Data("select 1;".utf8).write(to: sql.appendingPathComponent("0001_init.sql"))
        let nested = checkout.directory.appendingPathComponent(".build/debug")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let elsewhere = URL(fileURLWithPath: "/")

        // Walking up from the executable.
        #expect(try Migrator.locateDirectory(environment: [:], executable: nested.appendingPathComponent("menurank"),
                                             currentDirectory: elsewhere).path == sql.path)
        // Walking up from the current directory.
        #expect(try Migrator.locateDirectory(environment: [:], executable: nil, currentDirectory: nested)
            .path == sql.path)
        // The environment wins over walking, the option over the environment.
        #expect(try Migrator.locateDirectory(environment: ["MENURANK_MIGRATIONS": nested.path], executable: nil,
                                             currentDirectory: nested).path == nested.path)
        #expect(try Migrator.locateDirectory(explicit: sql.path, environment: ["MENURANK_MIGRATIONS": nested.path])
            .path == sql.path)
        // An installed layout: bin/menurank next to share/menurank/sql.
        let share = checkout.directory.appendingPathComponent("prefix/share/menurank/sql")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try Data("select 1;".utf8).write(to: share.appendingPathComponent("0001_init.sql"))
        let bin = checkout.directory.appendingPathComponent("prefix/bin/menurank")
        #expect(try Migrator.locateDirectory(environment: [:], executable: bin, currentDirectory: elsewhere)
            .path == share.path)
        // Nothing anywhere.
        let error = try #require(throws: MigratorError.self) {
            try Migrator.locateDirectory(environment: [:], executable: nil, currentDirectory: elsewhere)
        }
        #expect(error.kind == .directoryNotFound)
        #expect(throws: MigratorError.self) { try Migrator.locateDirectory(explicit: "/nonexistent/sql") }
    }
}

@Suite(TestDatabase.enabled) struct MigratorDatabaseTests {
    @Test func appliesInOrderOnceAndReportsStatus() throws {
        let fixture = try MigrationFixture([
            "0001_create.sql": "create table items (id int primary key);\ninsert into items values (1);",
            "0002_add_name.sql": "alter table items add column name text;\nupdate items set name = 'one';",
        ])
        defer { fixture.delete() }
        try TestDatabase.withSchema(prefix: "migrate") { schema in
            let conn = try schema.connect()
            let migrator = try Migrator(directory: fixture.directory)
            let before = try migrator.status(on: conn)
            #expect(before.applied.isEmpty)
            #expect(before.pending.map(\.version) == [1, 2])

            #expect(try migrator.migrate(on: conn).map(\.version) == [1, 2])
            #expect(try conn.query("select name from items").first?.decode(String.self, at: 0) == "one")
            let after = try migrator.status(on: conn)
            #expect(after.applied.map(\.version) == [1, 2])
            #expect(after.applied.map(\.checksum) == migrator.migrations.map(\.checksum))
            #expect(after.pending.isEmpty)

            // Twice: nothing changes.
            #expect(try migrator.migrate(on: conn).isEmpty)
            #expect(try conn.query("select count(*) from items").first?.decode(Int.self, at: 0) == 1)

            // A new file is applied on its own.
            try fixture.write(["0003_more.sql": "insert into items values (2, 'two');"])
            #expect(try Migrator(directory: fixture.directory).migrate(on: conn).map(\.name) == ["more"])
        }
    }

    @Test func failingMigrationLeavesNoTraceAndEarlierOnesStay() throws {
        let fixture = try MigrationFixture([
            "0001_ok.sql": "create table a (id int);",
            "0002_broken.sql": "create table b (id int);\ninsert into nope values (1);",
        ])
        defer { fixture.delete() }
        try TestDatabase.withSchema(prefix: "migrate") { schema in
            let conn = try schema.connect()
            let migrator = try Migrator(directory: fixture.directory)
            let error = try #require(throws: MigratorError.self) { try migrator.migrate(on: conn) }
            #expect(error.kind == .migrationFailed)
            #expect(error.version == 2)
            #expect((error.underlying as? PostgresError)?.sqlState == .undefinedTable)
            #expect(try migrator.status(on: conn).applied.map(\.version) == [1])
            #expect(try conn.query("select to_regclass('b') is null").first?.decode(Bool.self, at: 0) == true)
        }
    }

    @Test func refusesUnknownAppliedVersionAndChangedFiles() throws {
        let fixture = try MigrationFixture([
            "0001_a.sql": "create table a (id int);",
            "0002_b.sql": "create table b (id int);",
        ])
        defer { fixture.delete() }
        try TestDatabase.withSchema(prefix: "migrate") { schema in
            let conn = try schema.connect()
            try Migrator(directory: fixture.directory).migrate(on: conn)

            try fixture.remove("0002_b.sql")
            let older = try Migrator(directory: fixture.directory)
            let unknown = try #require(throws: MigratorError.self) { try older.migrate(on: conn) }
            #expect(unknown.kind == .unknownAppliedVersion)
            #expect(unknown.version == 2)
            #expect(try #require(throws: MigratorError.self) { try older.status(on: conn) }.kind == .unknownAppliedVersion)

            try fixture.write(["0002_b.sql": "create table b (id int);", "0001_a.sql": "create table a (id bigint);"])
            let changed = try #require(throws: MigratorError.self) {
                try Migrator(directory: fixture.directory).migrate(on: conn)
            }
            #expect(changed.kind == .checksumMismatch)
            #expect(changed.version == 1)
        }
    }

    /// sql/0016 was rewritten (its column and check as two statements, which Citus takes on a
    /// distributed schema); a database that applied the first text has the same schema, so its
    /// recorded checksum is accepted, and any other checksum still is not.
    @Test func theEarlierTextOf0016IsAcceptedAndNoOtherChange() throws {
        let sql = try RepositoryPaths.root().appendingPathComponent("sql")
        try TestDatabase.withSchema(prefix: "migrate") { schema in
            let conn = try schema.connect()
            try Migrator(directory: sql).migrate(on: conn, distribute: TestDatabase.distributed)
            #expect(try !conn.query("""
                SELECT 1 FROM pg_constraint WHERE conrelid = 'apps'::regclass AND conname = 'apps_allowed_origins_check'
                """).isEmpty, "the name PostgreSQL gave the column's check in the earlier text")
            let earlier = try #require(Migrator.earlierChecksums[16]?.first)
            try conn.execute("UPDATE schema_migrations SET checksum = \(earlier) WHERE version = 16")
            #expect(try Migrator(directory: sql).migrate(on: conn).isEmpty)
            #expect(try Migrator(directory: sql).status(on: conn).pending.isEmpty)
            try conn.execute("UPDATE schema_migrations SET checksum = 'changed' WHERE version = 16")
            let changed = try #require(throws: MigratorError.self) { try Migrator(directory: sql).migrate(on: conn) }
            #expect(changed.kind == .checksumMismatch && changed.version == 16)
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() throws {
        let fixture = try MigrationFixture([
            "0001_a.sql": "create table counter (n int); insert into counter values (0);",
            "0002_b.sql": "update counter set n = n + 1; select pg_sleep(0.05);",
            "0003_c.sql": "update counter set n = n + 10;",
        ])
        defer { fixture.delete() }
        try TestDatabase.withSchema(prefix: "migrate") { schema in
            let migrator = try Migrator(directory: fixture.directory)
            let applied = Locked([Int]())
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                do {
                    let conn = try schema.connect()
                    let done = try migrator.migrate(on: conn).map(\.version)
                    applied.withLock { $0 += done }
                } catch {
                    Issue.record(error)
                }
            }
            #expect(applied.withLock { $0.sorted() } == [1, 2, 3])
            #expect(try schema.connect().query("select n from counter").first?.decode(Int.self, at: 0) == 11)
        }
    }
}
