import Foundation
public import Postgres
import Synchronization
import Locking

/// Stores events with group commit.
///
/// Request threads call `write(_:)`, which queues the rows and blocks until the transaction holding
/// them has committed (or failed): a normal return means the rows are durable. Writer threads, each
/// with its own connection (the ingestion pool, apart from the pool everything else uses), take
/// every queued write up to `maxRowsPerTransaction`, and in one transaction:
///
/// 1. drop keys repeated inside the group (the later copy counts as a duplicate);
/// 2. make sure the days' partitions exist (cached, so normally no query);
/// 3. `COPY` the rows straight into `events` (binary format: nothing for the server to parse) and
///    append the touched (app, day) pairs to `rollup_queue`, then commit. This is the fast path: no
///    staging, no per-row INSERT. Each open day's unique index refuses a stored key. The statement
///    that queues the rollups also checks that none of the days was closed (sql/0015): a closed
///    day has no unique index, so a write there must take step 4.
/// 4. If the COPY hits a stored key (a retried batch) or a closed day (a client that was offline
///    for days), the transaction is rolled back and redone through a temporary staging table.
///    First the closed days' advisory locks (`lock_event_days`, which `close_event_partition`
///    takes too), then the ids those days already hold (one look-up per app and day, through the
///    day's BRIN index) are left out; then `COPY` into the staging table (each row tagged with its
///    write), and `INSERT … ON CONFLICT DO NOTHING RETURNING` joined back to the tags, which gives
///    each write its accepted and duplicate counts. The open days' unique indexes settle races
///    there; nobody else can write a locked closed day. A day closed between the look-up of closed
///    days and the end of the transaction fails the check of step 3, and the path starts again.
/// 5. Each transaction inserts a fresh token into `ingest_commits` (in the same statement as the
///    rollup queue rows). When the connection is lost with the counts computed (so possibly during
///    COMMIT, the outcome unknown), the writer inserts the token again on a new connection: a
///    conflict means the transaction committed (the insert waits for it if it is still finishing)
///    and the counts computed are the answer; otherwise nothing was stored and the group is written
///    again. So a lost COMMIT reply never turns the group's new events into "duplicates".
///    The token is filed under the group's first app (sql/0013), so on Citus it lands in a shard
///    group the transaction writes anyway: one app's group stays on one worker, and a group of
///    several apps is committed on all its workers or none (two-phase commit), so one token
///    answers for all.
/// 6. The statement of step 3 also takes the group's apps' advisory locks shared and checks that
///    the apps exist (sql/0017, 0022 `check_apps_live`): once `apps delete` (which takes the
///    app's lock exclusively) has committed, a group holding that app fails
///    (MR002), its writes are answered `.notFound` and the rest of the group is written again; a
///    group that took the lock first commits before the delete deletes its events. It also
///    checks that none of the (app, day) pairs holds tombstones of `users forget` (MR003, then
///    step 4's path, which looks the write's keys up among the tombstones, per app, and leaves
///    the tombstoned ones out as duplicates; after its insert it looks again, and a tombstone that
///    appeared meanwhile sends it round once more), so a retried batch never stores an erased
///    event again. (Look-ups of their own, not a subquery of the insert from the staging table:
///    Citus refuses a correlated subquery against a distributed table there.)
///
/// Partitions: `PartitionManager.ensure` knows the days that exist; the daemon's manager never
/// creates one on the request path, so a missing day fails with `.unavailable` (a 503).
///
/// When PostgreSQL is unreachable every waiting write fails with `.unavailable` at once; the
/// writer reconnects on the next group once PostgreSQL is back. A failure that says the database
/// answers but cannot take writes (disk full, read-only, too many connections, ...) is also
/// `.unavailable`, with its reason, and stays the writer's `recentFault` until a write commits.
public final class EventWriter: Sendable {
    public struct Configuration: Sendable {
        /// Opens one connection of the ingestion pool.
        public var connect: @Sendable () throws -> PostgresConnection
        /// Writer threads, i.e. the size of the ingestion pool.
        public var writers: Int
        /// Most rows in one transaction (a single larger write still goes alone).
        public var maxRowsPerTransaction: Int
        /// After a failed connection attempt, writes fail at once for this long before the next try.
        public var reconnectDelay: Duration

        public init(connect: @escaping @Sendable () throws -> PostgresConnection, writers: Int = 2,
                    maxRowsPerTransaction: Int = 20_000, reconnectDelay: Duration = .milliseconds(250))
        {
            self.connect = connect
            self.writers = max(1, writers)
            self.maxRowsPerTransaction = max(1, maxRowsPerTransaction)
            self.reconnectDelay = reconnectDelay
        }
    }

    public let configuration: Configuration
    public let partitions: PartitionManager
    private let observer: (any EventWriterObserver)?
    private let queue = CommitQueue()
    private let threads = Locked<[Thread]>([])
    private let running = Locked<Int>(0)
    private let finished = NSCondition()
    /// False after a connection attempt or transaction failed for an outage, until one succeeds.
    private let available = Atomic<Bool>(true)
    private let busyConnections = Atomic<Int>(0)
    /// The last write failure that a retry can resolve, with when it happened; cleared by the next
    /// commit.
    private let lastFault = Locked<(error: StorageError, at: ContinuousClock.Instant)?>(nil)

    public init(configuration: Configuration, partitions: PartitionManager, observer: (any EventWriterObserver)? = nil) {
        self.configuration = configuration
        self.partitions = partitions
        self.observer = observer
    }

    /// Starts the writer threads.
    public func start() {
        threads.withLock { threads in
            guard threads.isEmpty else { return }
            for index in 0..<configuration.writers {
                let worker = WriterWorker(writer: self)
                let thread = Thread { worker.run() }
                thread.name = "menurank-writer-\(index)"
                thread.stackSize = 1 << 20
                threads.append(thread)
            }
            running.withLock { $0 = threads.count }
            threads.forEach { $0.start() }
        }
    }

    /// Stores `rows` and returns once they are committed.
    /// - Throws: `.unavailable` (PostgreSQL unreachable; nothing or not all was committed, a retry
    ///   is safe), `.shuttingDown`, or `.database`.
    public func write(_ rows: [EventRow]) throws(StorageError) -> WriteCounts {
        guard !rows.isEmpty else { return WriteCounts() }
        let ticket = CommitTicket(rows: rows)
        guard queue.enqueue(ticket) else { throw StorageError(.shuttingDown, "the writer is shutting down") }
        return try ticket.wait().get()
    }

    /// Stops taking writes, commits everything already queued, and waits for the writer threads.
    public func shutdown() {
        queue.close()
        finished.lock()
        while running.withLock({ $0 }) > 0 { finished.wait() }
        finished.unlock()
    }

    /// False while PostgreSQL looks unreachable to the writers.
    public var isDatabaseAvailable: Bool { available.load(ordering: .relaxed) }

    /// Rows queued and not yet taken by a writer.
    public var queuedRows: Int { queue.depth }

    /// Why the last write failed, when the database answered but refused it for a reason a retry
    /// can resolve (disk full, read-only, too many connections, ...), no write has committed since,
    /// and it happened within `window`: what `/readyz` reports beside its own query, since a
    /// database that answers a `SELECT` may still refuse every write. The window lets readiness
    /// come back by itself when no traffic arrives to clear it.
    public func recentFault(within window: Duration = .seconds(30)) -> StorageError? {
        lastFault.withLock { fault in
            guard let fault, ContinuousClock.now - fault.at < window else { return nil }
            return fault.error
        }
    }

    /// Writer connections inside a transaction right now.
    public var connectionsInUse: Int { busyConnections.load(ordering: .relaxed) }

    // MARK: - Writer thread

    /// One writer thread and its connection.
    private final class WriterWorker: @unchecked Sendable {
        let writer: EventWriter
        var connection: PostgresConnection?
        var lastConnectFailure: ContinuousClock.Instant?
        /// Why the last connection attempt failed (too many connections, starting up, ...).
        var lastConnectError: StorageError?

        init(writer: EventWriter) { self.writer = writer }

        func run() {
            while let tickets = writer.queue.take(maxRows: writer.configuration.maxRowsPerTransaction) {
                writer.process(tickets, worker: self)
            }
            connection = nil
            writer.running.withLock { $0 -= 1 }
            writer.finished.lock()
            writer.finished.broadcast()
            writer.finished.unlock()
        }

        /// The worker's connection, opening one if needed; nil while PostgreSQL is unreachable.
        func liveConnection() -> PostgresConnection? {
            if let connection, connection.isAlive { return connection }
            connection = nil
            // Fail fast while PostgreSQL is down, unless another writer has reached it since.
            if let last = lastConnectFailure, !writer.isDatabaseAvailable,
               ContinuousClock.now - last < writer.configuration.reconnectDelay
            {
                return nil
            }
            do {
                let opened = try writer.configuration.connect()
                connection = opened
                lastConnectFailure = nil
                lastConnectError = nil
                return opened
            } catch {
                lastConnectFailure = ContinuousClock.now
                lastConnectError = error as? StorageError
                    ?? (error as? PostgresError).map { StorageError($0) }
                return nil
            }
        }
    }

    /// A write of the group with its rows left after in-group dedupe.
    private struct Part {
        let ticket: CommitTicket
        var rows: [EventRow]
        var duplicates: Int
    }

    private func process(_ tickets: [CommitTicket], worker: WriterWorker) {
        let started = ContinuousClock.now
        var seen = Set<EventKey>(minimumCapacity: tickets.reduce(0) { $0 + $1.rows.count })
        var parts: [Part] = []
        parts.reserveCapacity(tickets.count)
        var total = 0
        var firstApp = Int32.max
        for ticket in tickets {
            var part = Part(ticket: ticket, rows: [], duplicates: 0)
            part.rows.reserveCapacity(ticket.rows.count)
            for row in ticket.rows {
                if seen.insert(row.key).inserted {
                    part.rows.append(row)
                    firstApp = min(firstApp, row.appID)
                } else {
                    part.duplicates += 1
                }
            }
            total += part.rows.count
            parts.append(part)
        }
        guard total > 0 else {
            for part in parts { part.ticket.fulfil(.success(WriteCounts(accepted: 0, duplicates: part.duplicates))) }
            return
        }
        guard var connection = worker.liveConnection() else {
            available.store(false, ordering: .relaxed)
            fail(parts, Self.unreachable(because: worker.lastConnectError, "PostgreSQL is unreachable"))
            return
        }
        busyConnections.add(1, ordering: .relaxed)
        defer { busyConnections.subtract(1, ordering: .relaxed) }
        do {
            var counts: [WriteCounts]
            var computed: [WriteCounts]?
            let token = CommitToken(appID: firstApp, id: UUID())
            do {
                counts = try store(parts, token: token, computed: &computed, on: connection)
            } catch let error as PostgresError where error.isConnectionError || !connection.isAlive {
                // The connection was lost (a server restart, a kept connection that died while idle,
                // or a reply lost during COMMIT). Ask a fresh connection what happened.
                worker.connection = nil
                worker.lastConnectFailure = nil
                guard let fresh = worker.liveConnection() else { throw error }
                connection = fresh
                if let known = computed, try Self.committed(token, on: fresh) {
                    counts = known
                } else {
                    computed = nil
                    counts = try store(parts, token: CommitToken(appID: firstApp, id: UUID()), computed: &computed,
                                       on: connection)
                }
            }
            available.store(true, ordering: .relaxed)
            lastFault.withLock { $0 = nil }
            var accepted = 0
            var duplicates = 0
            for (part, count) in zip(parts, counts) {
                accepted += count.accepted
                duplicates += count.duplicates
                part.ticket.fulfil(.success(count))
            }
            let elapsed = ContinuousClock.now - started
            observer?.writerCommitted(rows: accepted, duplicates: duplicates, requests: parts.count,
                                      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        } catch let gone as DeletedApps {
            // `apps delete` committed: its writes fail as an unknown app, the others go again.
            var remaining: [CommitTicket] = []
            for part in parts {
                if let app = part.ticket.rows.first?.appID, gone.apps.contains(app) {
                    part.ticket.fulfil(.failure(StorageError(.notFound, "the app was deleted")))
                } else {
                    remaining.append(part.ticket)
                }
            }
            if !remaining.isEmpty { process(remaining, worker: worker) }
        } catch {
            let failure: StorageError
            if let error = error as? PostgresError {
                failure = StorageError(error)
            } else if let error = error as? StorageError {
                failure = error
            } else {
                failure = StorageError(.database, "\(error)", underlying: error)
            }
            if !connection.isAlive || failure.reason == .unreachable {
                // The connection is gone (or a fresh one could not be made): the server went away.
                worker.connection = nil
                available.store(false, ordering: .relaxed)
                let cause = failure.reason == .unreachable && worker.lastConnectError != nil ? worker.lastConnectError : failure
                fail(parts, Self.unreachable(because: cause, "PostgreSQL became unreachable during the write"))
            } else {
                // The server answered and refused (a full disk, read-only, a conflict) or the
                // statement failed: the connection stays.
                fail(parts, failure)
            }
        }
    }

    /// An outage error for a write: the cause's reason and detail when it has a specific one (too
    /// many connections, starting up), else `.unreachable` with `message`.
    private static func unreachable(because cause: StorageError?, _ message: String) -> StorageError {
        if let cause, cause.kind == .unavailable, let reason = cause.reason, reason != .unreachable { return cause }
        return StorageError(.unavailable, message, reason: .unreachable, underlying: cause?.underlying)
    }

    private func fail(_ parts: [Part], _ error: StorageError) {
        // What says the database answers but cannot take writes now (a full disk, no connection
        // slot, read-only, shutting down): not an outage (readiness sees that itself), a lost race
        // between writers (a retry wins it) or a day the maintainer is about to create.
        if error.kind == .unavailable, let reason = error.reason, ![.unreachable, .conflict, .partitionMissing].contains(reason) {
            lastFault.withLock { $0 = (error, ContinuousClock.now) }
        }
        for part in parts { part.ticket.fulfil(.failure(error)) }
        observer?.writerFailed(error, requests: parts.count)
    }

    /// Runs the fast path, and the duplicate-aware path when a key already exists. Retries once
    /// when a partition turned out to be missing (dropped behind the cache's back); a second miss,
    /// with every day in the catalog, is a day being made: `.unavailable` (503), never a 500.
    private func store(_ parts: [Part], token: CommitToken, computed: inout [WriteCounts]?,
                       on connection: PostgresConnection) throws -> [WriteCounts]
    {
        var days = Set<Int32>()
        var pairs = Set<AppDay>()
        for part in parts {
            for row in part.rows {
                if pairs.insert(AppDay(appID: row.appID, day: row.day)).inserted { days.insert(row.day) }
            }
        }
        var retried = false
        while true {
            do {
                try partitions.ensureDays(days, on: connection)
                do {
                    return try copyDirect(parts, pairs: pairs, token: token, computed: &computed, on: connection)
                } catch let error as PostgresError
                    where error.isUniqueViolation || error.isClosedEventDay || error.isForgottenEventDay
                {
                    return try copyStaged(parts, pairs: pairs, days: days, token: token, computed: &computed,
                                          on: connection)
                }
            } catch let error as PostgresError where error.isDeletedApp {
                let apps = Set(pairs.map(\.appID))
                let live = try Set(connection.query("SELECT app_id FROM apps WHERE app_id = ANY (\(apps.sorted())::int4[])")
                    .map { try $0.decode(Int32.self, column: "app_id") })
                let gone = apps.subtracting(live)
                guard !gone.isEmpty else { throw error }
                throw DeletedApps(apps: gone)
            } catch let error as PostgresError where error.isMissingPartition {
                guard !retried else {
                    // The catalog says every day exists, yet a row found no partition: the day is
                    // being made right now. On Citus the coordinator's catalog shows a new day
                    // before the workers have committed theirs (their COMMIT PREPARED follows the
                    // coordinator's commit). A retry succeeds once they have: 503, not 500.
                    throw StorageError(.unavailable, "a partition of these days is being created; retry",
                                       reason: .partitionMissing, underlying: error)
                }
                // "no partition of relation events found for row" (dropped behind the cache's back):
                // look again; the daemon's manager then fails with `.unavailable` instead of creating it.
                retried = true
                partitions.forget()
            }
        }
    }

    private func copyDirect(_ parts: [Part], pairs: Set<AppDay>, token: CommitToken, computed: inout [WriteCounts]?,
                            on connection: PostgresConnection) throws -> [WriteCounts]
    {
        let counts = parts.map { WriteCounts(accepted: $0.rows.count, duplicates: $0.duplicates) }
        try connection.withTransaction { connection in
            try connection.copyInBinary("""
                COPY events (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id,
                             latency_ms, session_hash, position, person_bucket) FROM STDIN (FORMAT binary)
                """)
            { writer in
                for part in parts {
                    for row in part.rows { try Self.append(row, to: &writer) }
                }
            }
            try Self.queueRollups(pairs, token: token, checkingOpen: pairs, checkingForgotten: true, on: connection)
            computed = counts
        }
        return counts
    }

    /// The staged path, again when a day it took for open was closed meanwhile (each day closes
    /// once, so that ends).
    private func copyStaged(_ parts: [Part], pairs: Set<AppDay>, days: Set<Int32>, token: CommitToken,
                            computed: inout [WriteCounts]?, on connection: PostgresConnection) throws -> [WriteCounts]
    {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try copyStagedOnce(parts, pairs: pairs, days: days, token: token, computed: &computed,
                                          on: connection)
            } catch let error as PostgresError where error.isClosedEventDay && attempt <= days.count {
                continue
            } catch is ForgottenMeanwhile where attempt <= days.count + 2 {
                // A forget committed while this insert waited for it: the next attempt sees its tombstones.
                continue
            }
        }
    }

    private func copyStagedOnce(_ parts: [Part], pairs: Set<AppDay>, days: Set<Int32>, token: CommitToken,
                                computed: inout [WriteCounts]?, on connection: PostgresConnection) throws -> [WriteCounts]
    {
        var counts: [WriteCounts] = []
        try connection.withTransaction { connection in
            // First in the transaction: the closed days' locks, then what they already hold, and
            // the keys `users forget` erased (sql/0017 tombstones): both are left out as duplicates.
            let closed = try Self.lockClosedDays(days, on: connection)
            var stored = closed.isEmpty ? [] : try Self.storedKeys(of: parts, in: closed, on: connection)
            let forgotten = try Self.forgottenKeys(of: parts, on: connection)
            stored.formUnion(forgotten)
            try connection.execute(unsafeSQL: """
                CREATE TEMP TABLE IF NOT EXISTS events_staging (LIKE events, tag integer NOT NULL)
                ON COMMIT DELETE ROWS
                """)
            try connection.copyInBinary("""
                COPY events_staging (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id,
                                     latency_ms, session_hash, position, person_bucket, tag) FROM STDIN (FORMAT binary)
                """)
            { writer in
                for (index, part) in parts.enumerated() {
                    for row in part.rows where stored.isEmpty || !stored.contains(row.key) {
                        try Self.append(row, to: &writer, tag: Int32(index))
                    }
                }
            }
            let rows = try connection.query("""
                WITH inserted AS (
                    INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id,
                                        context_id, latency_ms, session_hash, position, person_bucket)
                    SELECT app_id, day, time, user_hash, event_id, element_type_id, command_id,
                           context_id, latency_ms, session_hash, position, person_bucket
                    FROM events_staging
                    ON CONFLICT DO NOTHING
                    RETURNING app_id, event_id, day)
                SELECT s.tag, count(*) AS inserted FROM inserted i
                JOIN events_staging s ON s.app_id = i.app_id AND s.event_id = i.event_id AND s.day = i.day
                GROUP BY s.tag
                """)
            var inserted: [Int32: Int] = [:]
            for row in rows { inserted[try row.decode(column: "tag")] = try row.decode(column: "inserted") }
            // A forget that committed while the insert waited for it (the insert then stored the
            // key it deleted) shows as a tombstone the look-up above did not see.
            guard try Self.forgottenKeys(of: parts, on: connection).isSubset(of: forgotten) else {
                throw ForgottenMeanwhile()
            }
            try Self.queueRollups(pairs, token: token, checkingOpen: pairs.filter { !closed.contains($0.day) },
                                  checkingForgotten: false, on: connection)
            counts = parts.enumerated().map { index, part in
                let accepted = inserted[Int32(index)] ?? 0
                return WriteCounts(accepted: accepted, duplicates: part.duplicates + part.rows.count - accepted)
            }
            computed = counts
        }
        return counts
    }

    /// Queues the (app, day) pairs for the rollup and records the transaction's commit token, in
    /// one statement, which also checks that the days of `checkingOpen` are still open: it fails
    /// with SQLSTATE MR001 when one was closed (sql/0015). Being the transaction's last statement,
    /// its snapshot follows every row the transaction wrote into those days through their unique
    /// index: a closing that committed before such a write shows here, and one that had not cannot
    /// drop the index before this transaction ends.
    ///
    /// The same statement takes the apps' advisory locks shared and checks that they exist (sql/0022
    /// `check_apps_live`; a lock of the app, not a row lock of `apps`, which Citus serializes
    /// against every write into the events): an app deleted before it fails the write with MR002,
    /// and `apps delete` waits for a write that got the lock first, then deletes its events with
    /// the app. With `checkingForgotten` it also
    /// fails with MR003 when one of the pairs holds a tombstone of `users forget` (the open-day
    /// path: a retried key there may have been erased, which only the staged path tells apart).
    /// Its snapshot follows every forget whose deletion this transaction's inserts waited for.
    private static func queueRollups(_ pairs: Set<AppDay>, token: CommitToken, checkingOpen: Set<AppDay>,
                                     checkingForgotten: Bool, on connection: PostgresConnection) throws {
        let sorted = pairs.sorted { ($0.appID, $0.day) < ($1.appID, $1.day) }
        let apps = sorted.map(\.appID)
        let days = sorted.map(\.day)
        let open = Set(checkingOpen.map(\.day)).sorted()
        let forgotten: PostgresQuery = checkingForgotten
            ? "AND check_days_unforgotten(\(apps)::int4[], ARRAY(SELECT DATE '1970-01-01' + d FROM unnest(\(days)::int4[]) AS d))"
            : ""
        try connection.execute("""
            WITH commit_token AS (INSERT INTO ingest_commits (app_id, token) VALUES (\(token.appID), \(token.id)))
            INSERT INTO rollup_queue (app_id, day)
            SELECT a, DATE '1970-01-01' + d FROM unnest(\(apps)::int4[], \(days)::int4[]) AS t(a, d)
            WHERE check_event_days_open(ARRAY(SELECT DATE '1970-01-01' + o FROM unnest(\(open)::int4[]) AS o))
              AND check_apps_live(\(apps)::int4[]) \(forgotten)
            """)
    }

    /// Takes the advisory lock of each closed day among `days` (sql/0015 `lock_event_days`, in day
    /// order) and returns those days. Statements after it see every earlier writer of those days.
    private static func lockClosedDays(_ days: Set<Int32>, on connection: PostgresConnection) throws -> Set<Int32> {
        var closed = Set<Int32>()
        for row in try connection.query("""
            SELECT (d - DATE '1970-01-01')::int4 AS day
            FROM lock_event_days(ARRAY(SELECT DATE '1970-01-01' + x FROM unnest(\(days.sorted())::int4[]) AS x)) AS d
            """)
        {
            closed.insert(try row.decode(column: "day"))

        }
        return closed
    }

    /// The keys of `parts` in the `closed` days that are stored already, asked per app and day so
    /// that each question reads one day of one app (one shard on Citus). A closed day has no unique
    /// index: its BRIN index leads to the few pages whose (app_id, event_id) range holds an id.
    private static func storedKeys(of parts: [Part], in closed: Set<Int32>, on connection: PostgresConnection) throws
        -> Set<EventKey>
    {
        var asked: [AppDay: [EventKey]] = [:]
        for part in parts {
            for row in part.rows where closed.contains(row.day) {
                asked[AppDay(appID: row.appID, day: row.day), default: []].append(row.key)
            }
        }
        var stored = Set<EventKey>()
        for (pair, keys) in asked.sorted(by: { ($0.key.appID, $0.key.day) < ($1.key.appID, $1.key.day) }) {
            let ids = keys.map { EventRow.uuid(high: $0.high, low: $0.low) }
            for row in try connection.query("""
                SELECT k.n::int4 FROM events e
                JOIN unnest(\(ids)::uuid[]) WITH ORDINALITY AS k(id, n) ON e.event_id = k.id
                WHERE e.app_id = \(pair.appID) AND e.day = DATE '1970-01-01' + \(pair.day)
                """)
            {
                let position: Int32 = try row.decode(column: "n")
                stored.insert(keys[Int(position) - 1])
            }
        }
        return stored
    }

    /// The keys of `parts` that `users forget` erased (sql/0017 `forgotten_events`), asked per app
    /// so that each question reads one app's tombstones (one shard on Citus). A look-up here rather
    /// than a `NOT EXISTS` in the staged insert: that insert reads the session's own staging table,
    /// and Citus refuses a correlated subquery against a distributed table beside it.
    private static func forgottenKeys(of parts: [Part], on connection: PostgresConnection) throws -> Set<EventKey> {
        var asked: [Int32: [EventKey]] = [:]
        for part in parts {
            for row in part.rows { asked[row.appID, default: []].append(row.key) }
        }
        var forgotten = Set<EventKey>()
        for (app, keys) in asked.sorted(by: { $0.key < $1.key }) {
            let ids = keys.map { EventRow.uuid(high: $0.high, low: $0.low) }
            for row in try connection.query("""
                SELECT k.n::int4 FROM forgotten_events f
                JOIN unnest(\(ids)::uuid[], \(keys.map(\.day))::int4[]) WITH ORDINALITY AS k(id, d, n)
                  ON f.event_id = k.id AND f.day = DATE '1970-01-01' + k.d
                WHERE f.app_id = \(app)
                """)
            {
                let position: Int32 = try row.decode(column: "n")
                forgotten.insert(keys[Int(position) - 1])
            }
        }
        return forgotten
    }

    /// Whether the transaction that inserted `token` committed: inserting it again conflicts then
    /// (and waits for that transaction while it is still finishing).
    private static func committed(_ token: CommitToken, on connection: PostgresConnection) throws -> Bool {
        try connection.query("""
            INSERT INTO ingest_commits (app_id, token) VALUES (\(token.appID), \(token.id))
            ON CONFLICT (app_id, token) DO NOTHING RETURNING 1
            """).isEmpty
    }

    /// One row in binary COPY format, each field in its column's exact type (see sql/0001, 0020).
    private static func append(_ row: EventRow, to writer: inout BinaryCopyWriter, tag: Int32? = nil) throws {
        writer.beginRow(fields: tag == nil ? 12 : 13)
        writer.append(row.appID)
        writer.appendDate(daysSince1970: row.day)
        writer.appendTimestamp(microsSince1970: row.time)
        writer.append(row.userHash)
        writer.appendUUID(high: row.eventIDHigh, low: row.eventIDLow)
        writer.append(row.elementTypeID)
        writer.append(row.commandID)
        writer.append(row.contextID)
        writer.append(row.latencyMs)
        writer.append(row.sessionHash)
        writer.append(row.position)
        writer.append(row.personBucket)
        if let tag { writer.append(tag) }
        try writer.endRow()
    }
}

/// A write met apps that `apps delete` removed (sql/0017 `check_apps_live`).
private struct DeletedApps: Error {
    var apps: Set<Int32>
}

/// On the staged path, a `users forget` erased a key of the write while its insert waited for the
/// forget's delete: the attempt is rolled back and made again, and the next one leaves that key out.
private struct ForgottenMeanwhile: Error {}

/// The row a transaction leaves in `ingest_commits`: a fresh id under the group's first app.
struct CommitToken {
    var appID: Int32
    var id: UUID
}

/// An (app, day) pair whose rollup must be recomputed.
struct AppDay: Hashable {
    var appID: Int32
    var day: Int32
}
