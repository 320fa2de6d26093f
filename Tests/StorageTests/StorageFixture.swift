import CivilTime
import Foundation
import Postgres
import Storage
import TestSupport

/// A test schema with menurank's migrations applied and a pool inside it.
struct StorageFixture {
    let schema: TestSchema
    let pool: PostgresPool

    /// Runs `body` in a fresh, migrated schema; closes the pool and drops the schema afterwards.
    static func with<T>(prefix: String, _ body: (StorageFixture) throws -> T) throws -> T {
        try TestDatabase.withSchema(prefix: prefix) { schema in
            let connection = try schema.connect()
            try applyMigrations(on: connection)
            let pool = schema.makePool(maxConnections: 4)
            defer { pool.close() }
            return try body(StorageFixture(schema: schema, pool: pool))
        }
    }

    /// Applies the migrations (sql/NNNN_*.sql) with the Migrator.
    static func applyMigrations(on connection: PostgresConnection) throws {
        try Migrator(directory: RepositoryPaths.root().appendingPathComponent("sql"))
            .migrate(on: connection, distribute: TestDatabase.distributed)
    }

    func connect() throws -> PostgresConnection { try schema.connect() }

    /// A writer with its own connections into the schema (and the apps its rows name, see
    /// `ensureApps`).
    func makeWriter(writers: Int = 1, retentionDays: Int = 90, maxRows: Int = 20_000) -> EventWriter {
        try? Self.ensureApps(on: connect())
        let schema = self.schema
        let writer = EventWriter(
            configuration: .init(connect: { try schema.connect() }, writers: writers, maxRowsPerTransaction: maxRows),
            partitions: PartitionManager(retentionDays: retentionDays, attempts: TestDatabase.ddlAttempts))
        writer.start()
        return writer
    }

    /// Apps 1-64, which test rows name (`Rows.make(appID:)`): every write locks its apps' rows
    /// and fails for an app that does not exist (sql/0017, `apps delete`). Ids made later by
    /// `AppStore` come after them.
    static func ensureApps(on connection: PostgresConnection) throws {
        try connection.execute("""
            INSERT INTO apps (app_id, name, hash_secret)
            SELECT g, 'fixture-' || g, decode(repeat('00', 16), 'hex') FROM generate_series(1, 64) g
            ON CONFLICT DO NOTHING
            """)
        try connection.execute("SELECT setval(pg_get_serial_sequence('apps', 'app_id'), (SELECT max(app_id) FROM apps))")
    }

    func count(_ sql: String) throws -> Int {
        try connect().query(PostgresQuery(unsafeSQL: sql)).first!.decode(Int.self, at: 0)
    }
}

/// Deterministic test rows.
enum Rows {
    /// Today's day number: the rows' `day` (binary COPY's encoding).
    static let today = Int32(PartitionManager.today().dayNumber)

    /// A day number as the date the stores take and return.
    static func date(_ day: Int32) -> CivilDate { CivilDate(dayNumber: Int(day)) }

    static func make(appID: Int32, count: Int, seed: UInt64 = 1, day: Int32 = Rows.today) -> [EventRow] {
        var generator = SplitMix64(seed: seed)
        var rows: [EventRow] = []
        rows.reserveCapacity(count)
        let midnight = Int64(day) * 86_400_000_000
        for i in 0..<count {
            let time = midnight + Int64(i % 86_400) * 1_000_000 + 123
            let user = Int64(bitPattern: generator.next())
            let high = generator.next()
            let low = generator.next()
            let session = Int32(truncatingIfNeeded: generator.next())
            rows.append(EventRow(appID: appID, day: day, time: time, userHash: user, eventIDHigh: high, eventIDLow: low,
                                 elementTypeID: 1, commandID: i % 7 == 0 ? nil : 1, contextID: 1,
                                 latencyMs: Int32(i % 5000), sessionHash: session, position: Int16(i % 12),
                                 personBucket: Int16(i % 64)))
        }
        return rows
    }
}

