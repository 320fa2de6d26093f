public import CivilTime
import Foundation
import Hashing
public import Postgres

/// Privacy operations: erasing one person's events, deleting an app with everything it owns, and
/// dropping rollups past their retention.
///
/// They find menurank's tables from the catalog (every table of the schema with an `app_id`, and
/// with a `day` or a `level` + `block` column for rollups) rather than from a list written here,
/// so a table that a later migration adds is covered without a change to this file.
public struct PrivacyStore: Sendable {
    public init() {}

    /// What `forgetUser` did.
    public struct Forgotten: Sendable, Hashable {
        /// Events deleted.
        public var events: Int
        /// The UTC days they were on, whose rollups are recomputed, ascending.
        public var days: [CivilDate]
    }

    /// Deletes every stored event of the person whose client-side id is `userID` in the app (the
    /// id is hashed with the app's secret exactly as ingestion hashes it), keeps their keys as
    /// tombstones (`forgotten_events`, which the writers count as duplicates until the partition
    /// maintenance drops them with their day), queues the days they were on, and rolls those days
    /// up again, so that the rollups no longer count them.
    /// One transaction for the deletion and the queueing; the rollup follows in its own.
    /// - Throws: `StorageError.notFound` for an unknown app, or another `StorageError`.
    public func forgetUser(_ userID: String, appID: Int32, on connection: PostgresConnection) throws(StorageError) -> Forgotten {
        return try StorageError.mapping {
            let secret: [UInt8] = try connection.withTransaction { connection in
                guard let row = try connection.query("SELECT hash_secret FROM apps WHERE app_id = \(appID)").first else {
                    throw StorageError(.notFound, "no app \(appID)")
                }
                return try row.decode(column: "hash_secret")
            }
            guard let pseudonymizer = Pseudonymizer(secret: secret) else {
                throw StorageError(.database, "the app's hash secret is not 16 bytes")
            }
            let hash = pseudonymizer.pseudonym(userID)
            let forgotten: Forgotten = try connection.withTransaction { connection in
                // The erased keys stay as tombstones (sql/0017) for the events' retention, so a
                // retry of a batch acknowledged before now is a duplicate, not the person again.
                let rows = try connection.query("""
                    WITH gone AS (DELETE FROM events WHERE app_id = \(appID) AND user_hash = \(hash)
                                  RETURNING day, event_id),
                         kept AS (INSERT INTO forgotten_events (app_id, day, event_id)
                                  SELECT \(appID), day, event_id FROM gone ON CONFLICT DO NOTHING)
                    SELECT day, count(*) AS events FROM gone GROUP BY day ORDER BY day
                    """)
                var forgotten = Forgotten(events: 0, days: [])
                for row in rows {
                    forgotten.days.append(try row.decode(CivilDate.self, column: "day"))
                    forgotten.events += try row.decode(Int.self, column: "events")
                }
                if !forgotten.days.isEmpty {
                    try connection.execute("""
                        INSERT INTO rollup_queue (app_id, day)
                        SELECT \(appID), d FROM unnest(\(forgotten.days)) AS u(d)
                        """)
                }
                return forgotten
            }
            if !forgotten.days.isEmpty { _ = try RollupStore().rollUp(appID: appID, on: connection) }
            return forgotten
        }
    }

    /// Deletes the app called `name` and every row that belongs to it, in every table with an
    /// `app_id` (events, rollups, dictionaries, keys, tokens, manifests, layouts, proposals, ...),
    /// in one transaction. Returns the rows deleted per table (tables with none are left out).
    /// - Throws: `StorageError.notFound` when there is no such app, or another `StorageError`.
    public func deleteApp(named name: String, on connection: PostgresConnection) throws(StorageError) -> [(table: String, rows: Int)] {
        return try StorageError.mapping {
            try connection.withTransaction { connection in
                guard let appID = try AppStore.appID(named: name, lockingRow: true, on: connection) else {
                    throw StorageError(.notFound, "no app named \(name)")
                }
                // Waits for the writes that hold the app's lock, and holds the later ones off until
                // this commits; they then find no app (sql/0022 `check_apps_live`).
                try connection.execute("SELECT lock_app_for_delete(\(appID))")
                // Nothing may file, accept or roll up for the app meanwhile.
                try ManifestStore.lockMenus(appID: appID, on: connection)
                try connection.execute("SELECT pg_advisory_xact_lock(\(RollupStore.lockKey), \(appID))")
                var deleted: [(table: String, rows: Int)] = []
                for table in try Self.appTables(on: connection) where table != "apps" {
                    let count = try connection.query("""
                        WITH gone AS (DELETE FROM \(identifier: table) WHERE app_id = \(appID) RETURNING 1)
                        SELECT count(*) AS deleted FROM gone
                        """)[0].decode(Int.self, column: "deleted")
                    if count > 0 { deleted.append((table, count)) }
                }
                try connection.execute("DELETE FROM apps WHERE app_id = \(appID)")
                deleted.append(("apps", 1))
                return deleted
            }
        }
    }

    /// Deletes the rollups of days before `firstKept`: daily rows (tables
    /// with `app_id` and `day`, other than `events`, `rollup_queue` and `forgotten_events`) and
    /// blocks of days that end before it (tables with `app_id`, `level` and `block`), and records
    /// `firstKept` as every app's rollup horizon, before which the rollup never recomputes a day.
    /// Returns the rows deleted.
    public func dropRollups(before day: CivilDate, on connection: PostgresConnection) throws(StorageError) -> Int {
        return try StorageError.mapping {
            try connection.withTransaction { connection in
                var total = 0
                let firstKept = day.dayNumber
                // Remembered per app (sql/0017), so no later rollup recomputes a dropped day.
                try connection.execute("""
                    INSERT INTO rollup_horizons (app_id, first_kept) SELECT app_id, \(day) FROM apps
                    ON CONFLICT (app_id) DO UPDATE SET first_kept = GREATEST(rollup_horizons.first_kept, EXCLUDED.first_kept)
                    """)
                for (table, kind) in try Self.rollupTables(on: connection) {
                    // A block of level L holds days [block * 2^L, (block + 1) * 2^L - 1].
                    let query: PostgresQuery = kind == .daily
                        ? "WITH gone AS (DELETE FROM \(identifier: table) WHERE day < \(day) RETURNING 1) SELECT count(*) AS deleted FROM gone"
                        : """
                            WITH gone AS (DELETE FROM \(identifier: table)
                                          WHERE (block::bigint + 1) * (1::bigint << level) <= \(Int64(firstKept)) RETURNING 1)
                            SELECT count(*) AS deleted FROM gone
                            """
                    total += try connection.query(query)[0].decode(Int.self, column: "deleted")
                }
                return total
            }
        }
    }

    enum RollupKind { case daily, block }

    /// Tables of the current schema (not partitions) with an `app_id` column, each after every
    /// table whose foreign keys reference it, so deleting in this order never violates a key.
    static func appTables(on connection: PostgresConnection) throws -> [String] {
        let tables = try connection.query("""
            SELECT c.relname FROM pg_class c
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'app_id' AND NOT a.attisdropped
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
            ORDER BY c.relname
            """).map { try $0.decode(String.self, column: "relname") }
        let edges = try connection.query("""
            SELECT f.relname AS referencing, t.relname AS referenced FROM pg_constraint k
            JOIN pg_class f ON f.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid
            WHERE k.contype = 'f' AND f.relnamespace = current_schema()::regnamespace AND f.oid <> t.oid
            """).map {
            (from: try $0.decode(String.self, column: "referencing"), to: try $0.decode(String.self, column: "referenced"))
        }

        // Repeatedly take the tables that no remaining table references.
        var remaining = tables
        var ordered: [String] = []
        while !remaining.isEmpty {
            let free = remaining.filter { table in !edges.contains { $0.to == table && remaining.contains($0.from) } }
            let next = free.isEmpty ? remaining : free  // a cycle: take the rest as they are
            ordered += next
            remaining.removeAll { next.contains($0) }
        }
        return ordered
    }

    /// Rollup tables: with `app_id` and `day` (daily), or `app_id`, `level` and `block` (blocks).
    static func rollupTables(on connection: PostgresConnection) throws -> [(String, RollupKind)] {
        try connection.query("""
            SELECT c.relname, bool_or(a.attname = 'day') AS daily, bool_and(a.attname <> 'day')
                   AND count(*) FILTER (WHERE a.attname IN ('level', 'block')) = 2 AS blocks
            FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND NOT a.attisdropped
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
              AND c.relname NOT IN ('events', 'rollup_queue', 'forgotten_events')
              AND a.attname IN ('app_id', 'day', 'level', 'block')
            GROUP BY c.relname
            HAVING bool_or(a.attname = 'app_id')
            ORDER BY c.relname
            """).compactMap { row in
            let name: String = try row.decode(column: "relname")
            if try row.decode(Bool.self, column: "daily") { return (name, .daily) }
            if try row.decode(Bool.self, column: "blocks") { return (name, .block) }
            return nil
        }
    }
}
