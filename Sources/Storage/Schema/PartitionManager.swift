public import Events
public import CivilTime
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
/// The daemon runs `maintain` and `close` off the request path (at start, hourly, and at once when a
/// writer met a missing day); its writer is made with `createOnDemand: false`, so a request never runs DDL:
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

    /// Today's UTC day, by the system's clock unless given `now`.
    public static func today(_ now: UTCTimestamp = WallClock.system.now()) -> CivilDate {
        now.day
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
    public func maintain(on connection: PostgresConnection, today: CivilDate = PartitionManager.today())
        throws(StorageError) -> (created: Int, dropped: Int)
    {
        return try StorageError.mapping {
            // Partitions are known by day number (the writer's per-event check), so the range is too.
            let first = Int32(window.firstDay(today: today.dayNumber))
            let last = Int32(today.dayNumber + aheadDays)
            return try ddlLock.withLock { _ in
                let created = try createPartitions(from: first, to: last, on: connection)
                let dropped: Int = try connection.query("""
                    SELECT drop_event_partitions_before(DATE '1970-01-01' + \(first)) AS dropped
                    """)[0].decode(column: "dropped")
                known.withLock { known in known = known.filter { $0 >= first } }
                try connection.execute("DELETE FROM ingest_commits WHERE committed_at < now() - interval '1 day'")
                // Tombstones of `users forget` (sql/0017) live as long as their day's events would.
                try connection.execute("DELETE FROM forgotten_events WHERE day < DATE '1970-01-01' + \(first)")
                return (created, dropped)
            }
        }
    }

    /// Closes the days before yesterday that hold events and are still open, oldest first, one
    /// transaction each (sql/0015 `close_event_partition`): the day's rows are rewritten in
    /// (app_id, event_id) order, a BRIN index replaces its unique index, and from then on its
    /// events are written only under the day's advisory lock, after a look-up of the ids it holds
    /// (`EventWriter`). A day's btree entry per event (about 40 bytes) goes; what dedupe needs of the
    /// day then takes a few hundred bytes per million events.
    ///
    /// Each closing holds an exclusive lock on that day's partition while it rewrites it (seconds
    /// for millions of events): late events for that day and readers of it wait meanwhile, nothing
    /// else does. A day whose lock is not granted within 2 s (a long reader) is left for the next
    /// maintenance. `proceed` is asked before each day (the daemon stops between days when it
    /// shuts down). Returns the days closed.
    @discardableResult
    public func close(on connection: PostgresConnection, today: CivilDate = PartitionManager.today(),
                      while proceed: () -> Bool = { true }) throws(StorageError) -> [CivilDate]
    {
        return try StorageError.mapping {
            let candidates: [Int32] = try connection.query("""
                SELECT d FROM (
                    SELECT (to_date(substr(c.relname, 8), 'YYYYMMDD') - DATE '1970-01-01')::int4 AS d
                    FROM pg_inherits h
                    JOIN pg_class c ON c.oid = h.inhrelid
                    WHERE h.inhparent = 'events'::regclass AND c.relname ~ '^events_[0-9]{8}$') AS t
                WHERE d < \(Int32(today.dayNumber - 1)) AND NOT event_day_closed(DATE '1970-01-01' + d)
                ORDER BY d
                """).map { try $0.decode(column: "d") }
            var closed: [CivilDate] = []
            for day in candidates where proceed() {
                let held = try connection.query("""
                    SELECT EXISTS (SELECT 1 FROM events WHERE day = DATE '1970-01-01' + \(day)) AS held
                    """)[0].decode(Bool.self, column: "held")
                guard held else { continue }
                do {
                    if try connection.query("SELECT close_event_partition(DATE '1970-01-01' + \(day)) AS closed")[0]
                        .decode(Bool.self, column: "closed")
                    {
                        closed.append(CivilDate(dayNumber: Int(day)))
                    }
                } catch let error as PostgresError
                    where error.sqlState == .lockNotAvailable || error.sqlState == .deadlockDetected
                {
                    continue
                }
            }
            return closed
        }
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
        for row in rows { out.insert(try row.decode(column: "d")) }
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
                    SELECT ensure_event_partitions(DATE '1970-01-01' + \(first), DATE '1970-01-01' + \(last)) AS created
                    """)[0].decode(column: "created")

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
