public import Foundation
public import Postgres
import Synchronization

/// The daily partitions of `events`: creates the ones rows are about to go into (remembering which
/// days exist, so the hot path asks PostgreSQL only about a new day), and applies retention.
public final class PartitionManager: Sendable {
    /// Days of events kept; partitions ending before today minus this many days are dropped.
    public let retentionDays: Int
    /// Days after today that are created ahead of time.
    public let aheadDays: Int
    private let known = Mutex<Set<Int32>>([])
    /// Serialises partition DDL in this process (concurrent CREATE of one partition would fail).
    private let ddlLock = Mutex<Void>(())

    public init(retentionDays: Int, aheadDays: Int = 3) {
        self.retentionDays = retentionDays
        self.aheadDays = aheadDays
    }

    /// Today's UTC day number (days since 1970-01-01).
    public static func today(_ now: Date = Date()) -> Int32 {
        Int32((now.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// Makes sure a partition exists for each day.
    public func ensure(days: Set<Int32>, on connection: PostgresConnection) throws {
        let missing = known.withLock { known in days.filter { !known.contains($0) } }
        guard !missing.isEmpty else { return }
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
        throws -> (created: Int, dropped: Int)
    {
        let first = today - Int32(retentionDays)
        let last = today + Int32(aheadDays)
        return try ddlLock.withLock { _ in
            let created = try createPartitions(from: first, to: last, on: connection)
            let dropped: Int = try connection.query("""
                SELECT drop_event_partitions_before(DATE '1970-01-01' + \(first))
                """)[0].decode(at: 0)
            known.withLock { known in known = known.filter { $0 >= first } }
            return (created, dropped)
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
                        maxBytesPerRow: Double = 46) throws -> Int
    {
        let query: PostgresQuery = """
            SELECT c.relname, i.indexrelid::regclass::text, pg_relation_size(i.indexrelid)::int8, c.reltuples::float8
            FROM pg_inherits h
            JOIN pg_class c ON c.oid = h.inhrelid
            JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
            WHERE h.inhparent = 'events'::regclass AND c.relname ~ '^events_[0-9]{8}$'
              AND to_date(substr(c.relname, 8), 'YYYYMMDD') < DATE '1970-01-01' + \(today - 1)
            ORDER BY c.relname
            """
        var rebuilt = 0
        for row in try connection.query(query) {
            let table: String = try row.decode(at: 0)
            let index: String = try row.decode(at: 1)
            let bytes: Int64 = try row.decode(at: 2)
            var rows: Double = try row.decode(at: 3)
            guard bytes > 1 << 20 else { continue }
            if rows < 0 {
                try connection.execute("ANALYZE \(identifier: table)")
                rows = try connection.query("SELECT reltuples::float8 FROM pg_class WHERE oid = \(table)::regclass")
                    .first.map { try $0.decode(Double.self, at: 0) } ?? -1
            }
            guard rows > 0, Double(bytes) / rows > maxBytesPerRow else { continue }
            try connection.execute(PostgresQuery(unsafeSQL: "REINDEX INDEX CONCURRENTLY \(index)"))
            rebuilt += 1
        }
        return rebuilt
    }

    /// Forgets what it knows (after partitions were dropped behind its back).
    public func forget() {
        known.withLock { $0.removeAll() }
    }

    @discardableResult
    private func createPartitions(from first: Int32, to last: Int32, on connection: PostgresConnection) throws -> Int {
        var attempt = 0
        while true {
            do {
                let created: Int = try connection.query("""
                    SELECT ensure_event_partitions(DATE '1970-01-01' + \(first), DATE '1970-01-01' + \(last))
                    """)[0].decode(at: 0)
                known.withLock { known in for day in first...last { known.insert(day) } }
                return created
            } catch let error as PostgresError
                where attempt == 0 && (error.sqlState == .duplicateTable || error.sqlState == .uniqueViolation)
            {
                // Another process created one of the partitions at the same moment: look again.
                attempt += 1
            }
        }
    }
}
