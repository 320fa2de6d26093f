public import Events
import CivilTime
public import Foundation
public import Postgres
import Locking

/// The daily partitions of `events`: creates them ahead of time, drops those past the retention,
/// and tells the writer which days exist (remembering them, so the hot path asks PostgreSQL only
/// about a new day).
///
/// Creation makes each day's table on its own and attaches it (sql/0010), which takes only
/// SHARE UPDATE EXCLUSIVE on `events`: a long reader (a pg_dump, a report) does not hold it up, and
/// it does not hold up writers. It runs with a lock timeout and is retried.
///
/// The daemon runs `maintain` off the request path (at start, hourly, and at once when a writer met
/// a missing day); its writer is made with `createOnDemand: false`, so a request never runs DDL:
/// a write for a day without a partition fails with `.unavailable` (503 with Retry-After) and asks
/// for maintenance. `menurank import` creates the days of its history as it goes.
public final class PartitionManager: Sendable {
    /// The days kept: the same window ingestion applies (`EventPolicy.window`).
    public let window: RetentionWindow
    /// Days after today that are created ahead of time (at least `window.futureDays` + 1, so the
    /// days accepted exist even when maintenance has not run since midnight).
    public let aheadDays: Int
    /// Whether `ensure` may create a missing day (import) or must fail (the daemon's request path).
    public let createOnDemand: Bool
    /// Creation attempts (each with the lock timeout of sql/0010) before `maintain` gives up.
    public let attempts: Int
    private let known = Locked<Set<Int32>>([])
    /// Serialises partition DDL in this process (concurrent CREATE of one partition would fail).
    private let ddlLock = Locked<Void>(())
    private let missingHandler = Locked<(@Sendable () -> Void)?>(nil)

    public init(window: RetentionWindow, aheadDays: Int = 3, createOnDemand: Bool = true, attempts: Int = 5) {
        self.window = window
        self.aheadDays = max(aheadDays, window.futureDays + 1)
        self.createOnDemand = createOnDemand
        self.attempts = max(1, attempts)
    }

    public convenience init(retentionDays: Int, aheadDays: Int = 3, createOnDemand: Bool = true, attempts: Int = 5) {
        self.init(window: RetentionWindow(retentionDays: retentionDays), aheadDays: aheadDays,
                  createOnDemand: createOnDemand, attempts: attempts)
    }

    /// Days of events kept before today.
    public var retentionDays: Int { window.retentionDays }

    /// Called (on the writer's thread) when a write met a day without a partition and
    /// `createOnDemand` is false: the daemon wakes its maintainer.
    public func onMissingPartition(_ handler: @escaping @Sendable () -> Void) {
        missingHandler.withLock { $0 = handler }
    }

    /// Today's UTC day number (days since 1970-01-01).
    public static func today(_ now: Date = Date()) -> Int32 {
        Int32((now.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// Makes sure a partition exists for each day: known days cost nothing; an unknown one is looked
    /// up in the catalog (no lock on `events`), and created only when `createOnDemand`.
    /// - Throws: `StorageError.unavailable` for a missing day when it may not create it.
    public func ensure(days: Set<Int32>, on connection: PostgresConnection) throws(StorageError) {
        try StorageError.mapping { try ensureDays(days, on: connection) }
    }

    /// `ensure` for the writer, which tells a lost connection (a `PostgresError`) apart itself.
    func ensureDays(_ days: Set<Int32>, on connection: PostgresConnection) throws {
        let unknown = known.withLock { known in days.filter { !known.contains($0) } }
        guard !unknown.isEmpty else { return }
        let existing = try existingDays(unknown.sorted(), on: connection)
        known.withLock { known in known.formUnion(existing) }
        let missing = unknown.subtracting(existing)
        guard !missing.isEmpty else { return }
        guard createOnDemand else {
            missingHandler.withLock { $0 }?()
            let day = CivilDate(dayNumber: Int(missing.min()!))
            throw StorageError(.unavailable, "the partition for \(day) is not created yet; retry", reason: .partitionMissing)
        }
        try ddlLock.withLock { _ in
            for day in missing.sorted() {
                try createPartitions(from: day, to: day, on: connection)
            }
        }
    }

    /// Creates the partitions of [today - retention, today + ahead] and drops those before;
    /// returns how many it created and dropped.
    @discardableResult
    public func maintain(on connection: PostgresConnection, today: Int32 = PartitionManager.today())
        throws(StorageError) -> (created: Int, dropped: Int)
    {
        return try StorageError.mapping {
            let first = Int32(window.firstDay(today: Int(today)))
            let last = today + Int32(aheadDays)
            return try ddlLock.withLock { _ in
                let created = try createPartitions(from: first, to: last, on: connection)
                let dropped: Int = try connection.query("""
                    SELECT drop_event_partitions_before(DATE '1970-01-01' + \(first))
                    """)[0].decode(at: 0)
                known.withLock { known in known = known.filter { $0 >= first } }
                try connection.execute("DELETE FROM ingest_commits WHERE committed_at < now() - interval '1 day'")
                return (created, dropped)
            }
        }
    }

    /// Rebuilds the primary-key index of closed days (before yesterday) when it is bloated.
    ///
    /// Random (v4) event ids land on random index pages, which settle about two thirds full, so a
    /// day's index takes about 54 bytes per event while the day receives events; rebuilt once the
    /// day is over it packs pages 90% full and takes about 40. `REINDEX CONCURRENTLY` does not
    /// block writers. An index over `maxBytesPerRow` per row (and over 1 MB) is rebuilt; a
    /// rebuilt one stays under, so each day is compacted about once. Returns the indexes rebuilt.
    @discardableResult
    public func compact(on connection: PostgresConnection, today: Int32 = PartitionManager.today(),
                        maxBytesPerRow: Double = 46) throws(StorageError) -> Int
    {
        return try StorageError.mapping {
            let query: PostgresQuery = """
                SELECT c.relname, i.indexrelid::regclass::text, pg_relation_size(i.indexrelid)::int8, c.reltuples::float8
                FROM pg_inherits h
                JOIN pg_class c ON c.oid = h.inhrelid
                JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
                WHERE h.inhparent = 'events'::regclass AND c.relname ~ '^events_[0-9]{8}$'
                  AND to_date(substr(c.relname, 8), 'YYYYMMDD') < DATE '1970-01-01' + \(today - 1)
                ORDER BY c.relname
                """
            // On Citus the coordinator's partitions are empty: the rows and indexes are in their shards.
            let distributed = try Self.isDistributed(on: connection)
            var rebuilt = 0
            for row in try connection.query(query) {
                let table: String = try row.decode(at: 0)
                let index: String = try row.decode(at: 1)
                var bytes: Int64 = try row.decode(at: 2)
                var rows: Double = try row.decode(at: 3)
                if distributed { (bytes, rows) = try Self.shardSizes(of: table, on: connection) }
                guard bytes > 1 << 20 else { continue }
                if rows < 0 {
                    try connection.execute("ANALYZE \(identifier: table)")
                    rows = distributed
                        ? try Self.shardSizes(of: table, on: connection).rows
                        : try connection.query("SELECT reltuples::float8 FROM pg_class WHERE oid = \(table)::regclass")
                            .first.map { try $0.decode(Double.self, at: 0) } ?? -1
                }
                guard rows > 0, Double(bytes) / rows > maxBytesPerRow else { continue }
                try connection.execute(PostgresQuery(unsafeSQL: "REINDEX INDEX CONCURRENTLY \(index)"))
                rebuilt += 1
            }
            return rebuilt
        }
    }

    /// Whether `events` is distributed; the database's own error when it cannot tell (so a lost
    /// connection stays an outage).
    static func isDistributed(on connection: PostgresConnection) throws -> Bool {
        do {
            return try Distributor.isDistributed(on: connection)
        } catch {
            if let underlying = error.underlying { throw underlying }
            throw error
        }
    }

    /// A distributed partition's primary-key index bytes and estimated rows, summed over its shards
    /// on the workers; rows is -1 while a shard was never analyzed. (`REINDEX` of the partition's
    /// index on the coordinator is carried to every shard by Citus.)
    static func shardSizes(of table: String, on connection: PostgresConnection) throws -> (bytes: Int64, rows: Double) {
        let results = try connection.query("""
            SELECT success, result FROM run_command_on_shards(\(table)::regclass, $$
                SELECT pg_relation_size(i.indexrelid) || ' ' || c.reltuples
                FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
                WHERE i.indrelid = '%s'::regclass AND i.indisprimary $$)
            """)
        var bytes: Int64 = 0
        var rows: Double = 0
        for result in results {
            let text: String = try result.decode(at: 1)
            let fields = text.split(separator: " ")
            guard try result.decode(Bool.self, at: 0), fields.count == 2, let size = Int64(fields[0]),
                  let estimate = Double(fields[1])
            else {
                throw PostgresError(kind: .query, message: "the size of a shard of \(table) did not read: \(text)")
            }
            bytes += size
            rows = rows < 0 || estimate < 0 ? -1 : rows + estimate
        }
        return (bytes, rows)
    }

    /// Forgets what it knows (after partitions were dropped behind its back).
    public func forget() {
        known.withLock { $0.removeAll() }
    }

    /// The days of `days` that have a partition, from the catalog (no lock on `events`).
    private func existingDays(_ days: [Int32], on connection: PostgresConnection) throws -> Set<Int32> {
        let rows = try connection.query("""
            SELECT d FROM unnest(\(days)::int4[]) AS t(d)
            WHERE to_regclass(quote_ident(current_schema()) || '.events_' || to_char(DATE '1970-01-01' + d, 'YYYYMMDD'))
                  IS NOT NULL
            """)
        var out = Set<Int32>()
        for row in rows { out.insert(try row.decode(at: 0)) }
        return out
    }

    /// Creates the missing partitions of [first, last]; retries when it timed out on a lock (other
    /// DDL on `events`) or raced another process creating the same day.
    @discardableResult
    private func createPartitions(from first: Int32, to last: Int32, on connection: PostgresConnection) throws -> Int {
        var attempt = 1
        while true {
            do {
                let created: Int = try connection.query("""
                    SELECT ensure_event_partitions(DATE '1970-01-01' + \(first), DATE '1970-01-01' + \(last))
                    """)[0].decode(at: 0)
                known.withLock { known in for day in first...last { known.insert(day) } }
                return created
            } catch let error as PostgresError where attempt < attempts && Self.isRetryable(error) {
                Thread.sleep(forTimeInterval: 0.2 * Double(attempt))
                attempt += 1
            }
        }
    }

    private static func isRetryable(_ error: PostgresError) -> Bool {
        error.sqlState == .duplicateTable || error.sqlState == .uniqueViolation || error.sqlState == .lockNotAvailable
            || error.sqlState == .deadlockDetected
    }
}
