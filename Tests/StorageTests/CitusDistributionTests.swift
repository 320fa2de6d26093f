import CivilTime
import Foundation
import Menus
import Postgres
import Ranking
import Storage
import Testing
import TestSupport

/// menurank's schema on a real Citus cluster (`scripts/test --citus`: a coordinator and two
/// workers, MENURANK_DISTRIBUTED=1): `migrate --distributed` places every table, later migrations
/// keep working, and the per-app paths (ingestion, rollup, ranking, proposal accept) are routed to
/// one shard, with `hll` unions computed on the workers.
///
/// Routing is proved two ways. The real code paths run on connections where Citus turns any
/// statement that needs more than one shard into an error (`citus.multi_task_query_log_level`), so
/// a query that loses its app filter fails here. And `EXPLAIN` of each path's statements shows one
/// task.
@Suite(.enabled(if: TestDatabase.distributed, "needs a Citus coordinator: scripts/test --citus"))
struct CitusDistributionTests {
    static let sql = (try? RepositoryPaths.root().appendingPathComponent("sql")) ?? URL(fileURLWithPath: "sql")

    /// A connection into the schema on which a statement touching more than one shard fails.
    static func routedOnly(_ schema: TestSchema) throws -> PostgresConnection {
        let connection = try schema.connect()
        try connection.execute("SET citus.multi_task_query_log_level = 'error'")
        return connection
    }

    /// The `Task Count` figures of a plan, outermost first.
    static func taskCounts(_ plan: String) -> [Int] {
        plan.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "Task Count: ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    static func explain(_ statement: PostgresQuery, on connection: PostgresConnection) throws -> String {
        var query: PostgresQuery = "EXPLAIN (VERBOSE, COSTS OFF) "
        query.append(statement)
        return try connection.query(query).map { try $0.decode(String.self, at: 0) }.joined(separator: "\n")
    }

    /// Asserts that every distributed step of the plan runs as one task (a router plan).
    static func expectRouted(_ statement: PostgresQuery, on connection: PostgresConnection, _ what: Comment,
                             sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let plan = try explain(statement, on: connection)
        let counts = taskCounts(plan)
        #expect(!counts.isEmpty && counts.allSatisfy { $0 == 1 }, "\(what): \(plan)", sourceLocation: sourceLocation)
    }

    @Test func migrateDistributedPlacesEveryTableAndIsIdempotent() throws {
        try TestDatabase.withSchema(prefix: "citus") { schema in
            let connection = try schema.connect()
            let first = try Migrator(directory: Self.sql).migrate(on: connection, distribute: true)
            let report = try #require(first.distribution)
            #expect(report.citusVersion.hasPrefix("13."))
            #expect(report.placed.prefix(DistributionPlan.referenceTables.count).map(\.table)
                == DistributionPlan.referenceTables)
            // The schema's aggregates exist on the workers (Citus propagates them when they are
            // created; the distributor creates any it missed).
            #expect(try connection.query("""
                SELECT count(*)::int FROM pg_proc p JOIN pg_catalog.pg_dist_object o
                  ON o.classid = 'pg_proc'::regclass AND o.objid = p.oid
                WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind = 'a'
                """)[0].decode(Int.self, at: 0) == 2)

            let rows = try connection.query("""
                SELECT c.relname::text, p.partmethod::text, p.repmodel::text,
                       COALESCE(column_to_column_name(p.logicalrelid, p.partkey), ''), p.colocationid
                FROM pg_class c LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
                  AND NOT c.relispartition
                """)
            var placement: [String: (method: String?, replication: String?, column: String, colocation: Int32?)] = [:]
            for row in rows {
                placement[try row.decode(at: 0)] = (try row.decode(at: 1), try row.decode(at: 2), try row.decode(at: 3),
                                                    try row.decode(at: 4))
            }
            for table in DistributionPlan.referenceTables {
                #expect(placement[table]?.method == "n" && placement[table]?.replication == "t", "\(table)")
            }
            let events = try #require(placement["events"])
            #expect(events.method == "h" && events.column == "app_id")
            for (table, where_) in placement
            where !DistributionPlan.referenceTables.contains(table) && !DistributionPlan.localTables.contains(table)
            {
                #expect(where_.method == "h" && where_.column == "app_id" && where_.colocation == events.colocation,
                        "\(table) is distributed by app_id with events")
            }
            #expect(placement["schema_migrations"]?.method == nil)
            #expect(placement["closed_event_days"]?.method == nil)
            // The group is menurank's alone (not Citus' default one, which the other test schemas'
            // tables would share): adding a table to a group locks one of its members.
            let group = try #require(events.colocation)
            #expect(try connection.query("""
                SELECT count(*)::int FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
                WHERE p.colocationid = \(group)
                  AND c.relnamespace <> current_schema()::regnamespace
                """)[0].decode(Int.self, at: 0) == 0)
            // The daily partitions made after distribution are distributed with their parent.
            try TestDatabase.ensureEventPartitions(through: "2026-11-29", days: 2, on: connection)
            #expect(try connection.query("""
                SELECT count(*)::int FROM pg_dist_partition
                WHERE logicalrelid IN (to_regclass('events_20261128'), to_regclass('events_20261129'))
                """)[0].decode(Int.self, at: 0) == 2)

            let again = try Migrator(directory: Self.sql).migrate(on: connection, distribute: true)
            #expect(again.applied.isEmpty)
            #expect(again.distribution?.placed == [])
            #expect(again.distribution?.functions == [])
            #expect(try Distributor.isDistributed(on: connection))
        }
    }

    /// A migration written after the schema was distributed (a new column, an index, a new
    /// app-scoped table with a foreign key to apps, data moved with INSERT ... SELECT) applies on
    /// the cluster, and the new table is distributed with the others by the same migrate.
    @Test func laterMigrationsApplyToTheDistributedSchema() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("menurank-citus-migrations-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.sql.path) where name.hasSuffix(".sql") {
            try FileManager.default.copyItem(at: Self.sql.appendingPathComponent(name),
                                             to: directory.appendingPathComponent(name))
        }
        try TestDatabase.withSchema(prefix: "citus_later") { schema in
            let connection = try schema.connect()
            try Migrator(directory: directory).migrate(on: connection, distribute: true)
            let app = try LayoutFixtures.createApp("mail", on: connection)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: connection)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: connection)
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-29", elementType: message, command: reply, count: 30,
                                            users: 1...6, on: connection)
            _ = try RollupStore().rollUp(appID: app, on: connection)

            try """
                -- Written after distribution: must apply on a distributed schema.
                ALTER TABLE events ADD COLUMN note text;
                CREATE INDEX daily_command_usage_command ON daily_command_usage (app_id, command_id);
                CREATE TABLE command_notes (
                    app_id     integer NOT NULL REFERENCES apps (app_id),
                    command_id integer NOT NULL,
                    selections bigint NOT NULL,
                    PRIMARY KEY (app_id, command_id)
                );
                INSERT INTO command_notes (app_id, command_id, selections)
                SELECT app_id, command_id, sum(selections) FROM daily_command_usage GROUP BY app_id, command_id;
                UPDATE events SET note = 'seen' WHERE app_id IN (SELECT app_id FROM apps WHERE name = 'mail');
                """.write(to: directory.appendingPathComponent("9001_after_distribution.sql"), atomically: true,
                          encoding: .utf8)
            let later = try Migrator(directory: directory).migrate(on: connection)
            #expect(later.map(\.version) == [9001])

            #expect(try connection.query("""
                SELECT partmethod::text || ':' || column_to_column_name(logicalrelid, partkey)
                       || ':' || (colocationid = (SELECT colocationid FROM pg_dist_partition
                                                  WHERE logicalrelid = 'events'::regclass))::text
                FROM pg_dist_partition WHERE logicalrelid = 'command_notes'::regclass
                """).first?.decode(String.self, at: 0) == "h:app_id:true")
            #expect(try connection.query("SELECT selections FROM command_notes WHERE app_id = \(app)")
                .first?.decode(Int64.self, at: 0) == 30)
            #expect(try connection.query("SELECT count(*)::int FROM events WHERE app_id = \(app) AND note = 'seen'")[0]
                .decode(Int.self, at: 0) == 30)
            // The app's rows still roll up and rank as before.
            try LayoutFixtures.insertEvents(app: app, day: "2026-11-29", elementType: message, command: reply, count: 5,
                                            users: 1...6, on: connection)
            _ = try RollupStore().rollUp(appID: app, on: connection)
            #expect(try connection.query("""
                SELECT selections FROM daily_command_usage WHERE app_id = \(app) AND day = '2026-11-29'
                """)[0].decode(Int64.self, at: 0) == 35)
            #expect(try Migrator(directory: directory).migrate(on: connection).isEmpty)
        }
    }

    /// The real ingestion, rollup, ranking and review code of one app, on connections where a
    /// statement touching more than one shard fails, and `EXPLAIN` of their statements.
    @Test func perAppPathsAreRoutedToOneShard() throws {
        try StorageFixture.with(prefix: "citus_router") { fixture in
            let setup = try fixture.connect()
            let app = try LayoutFixtures.createApp("mail", on: setup)
            let other = try LayoutFixtures.createApp("photos", on: setup)
            let message = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: setup)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: setup)
            let guarded = try Self.routedOnly(fixture.schema)
            // The guard is live: a statement over every app fails on it.
            #expect(throws: PostgresError.self) { try guarded.query("SELECT count(*) FROM events") }

            // Ingestion: partitions are made ahead (daemon maintenance, not per app); the COPY and
            // the rollup queue of one app's batch then touch its shard only.
            let partitions = PartitionManager(retentionDays: 30, attempts: TestDatabase.ddlAttempts)
            try partitions.maintain(on: setup)
            let schema = fixture.schema
            let writer = EventWriter(
                configuration: .init(connect: { try Self.routedOnly(schema) }, writers: 1),
                partitions: partitions)
            writer.start()
            defer { writer.shutdown() }
            let rows = Rows.make(appID: app, count: 500, seed: 11, day: Rows.today).map { row -> EventRow in
                var row = row
                row.elementTypeID = message
                if row.commandID != nil { row.commandID = reply }
                return row
            }
            #expect(try writer.write(rows) == WriteCounts(accepted: 500, duplicates: 0))
            // A retried batch takes the staged INSERT ... ON CONFLICT path, routed as well.
            #expect(try writer.write(Array(rows.prefix(100))) == WriteCounts(accepted: 0, duplicates: 100))
            _ = try writer.write(Rows.make(appID: other, count: 50, seed: 12))
            // The app's events are all in the one shard its id hashes to: counted shard by shard.
            let perShard = try setup.query("""
                SELECT shardid, result::int FROM run_command_on_shards(
                    (quote_ident(current_schema()) || '.events')::regclass,
                    'SELECT count(*) FROM %s WHERE app_id = ' || \(app))
                WHERE success AND result::int > 0
                """).map { (try $0.decode(Int64.self, at: 0), try $0.decode(Int.self, at: 1)) }
            let home = try setup.query("SELECT get_shard_id_for_distribution_column('events', \(app))")[0]
                .decode(Int64.self, at: 0)
            #expect(perShard.count == 1)
            #expect(perShard.first?.0 == home && perShard.first?.1 == 500)
            try Self.expectRouted("""
                INSERT INTO events (app_id, day, time, event_id, element_type_id, command_id)
                VALUES (\(app), CURRENT_DATE, now(), '00000000-0000-0000-0000-000000000001', \(message), \(reply)),
                       (\(app), CURRENT_DATE, now(), '00000000-0000-0000-0000-000000000002', \(message), NULL)
                ON CONFLICT DO NOTHING
                """, on: setup, "the insert path of one app's events")

            // Rollup of one app.
            let outcome = try RollupStore().rollUp(appID: app, on: guarded)
            #expect(outcome.days == [CivilDate(dayNumber: Int(Rows.today))])
            let day = CivilDate(dayNumber: Int(Rows.today)).description
            try Self.expectRouted("""
                WITH counted AS (
                    SELECT element_type_id, command_id, count(*) AS n,
                           (SELECT hll_add_agg(hll_hash_bigint(u)) FROM unnest(array_agg(user_hash)) AS u) AS users
                    FROM events WHERE app_id = \(app) AND day = \(day)::date
                    GROUP BY element_type_id, command_id
                ), commands AS (
                    INSERT INTO daily_command_usage (app_id, day, element_type_id, command_id, selections, users)
                    SELECT \(app), \(day)::date, element_type_id, command_id, n, COALESCE(users, hll_empty())
                    FROM counted WHERE command_id IS NOT NULL
                    RETURNING 1
                )
                SELECT count(*) FROM commands
                """, on: setup, "the rollup of one app's day")

            // Ranking of one app over a window: the parts' rows read as they are (their sketches
            // united by the client), on one connection and split over two.
            let window = RankingWindow(asOf: CivilDate(dayNumber: Int(Rows.today)), length: 28)
            let activities = try RankingQuery(appID: app, window: window).activities(on: guarded)
            #expect(activities.map(\.elementType) == ["mail.message"])
            let split = try RankingQuery(appID: app, window: window).activities(on: guarded, alongside: Self.routedOnly(fixture.schema))
            #expect(split == activities)
            #expect(activities.first?.users ?? 0 > 0)
            try Self.expectRouted("""
                SELECT element_type_id, command_id, part, selections, user_days, users FROM (
                    SELECT element_type_id, command_id, selections, user_days, users, 0 AS part FROM daily_command_usage
                    WHERE app_id = \(app) AND day = ANY(ARRAY[\(day)::date])
                    UNION ALL
                    SELECT element_type_id, command_id, selections, user_days, users, 0 AS part FROM block_command_usage
                    WHERE app_id = \(app) AND (level, block) IN (SELECT * FROM unnest('{1}'::int2[], '{0}'::int4[]))
                ) AS p WHERE element_type_id % 2 = 0
                """, on: setup, "the window's rows of one app")

            // Proposal accept: once its app is known, every statement is routed.
            let manifest = """
                {"app": "mail", "version": "1", "commands": {"reply": {"title": "Reply"}, "archive": {"title": "Archive"}},
                 "menus": {"mail.message": {"groups": [["archive", "reply"]]}}}
                """
            _ = try ManifestStore().importManifest(try ManifestParser.load(manifest), text: manifest, appID: app, on: setup)
            let draft = ProposalDraft(
                elementType: "mail.message", baseLayoutVersion: 1, windowFrom: CivilDate(dayNumber: Int(Rows.today) - 27),
                windowTo: CivilDate(dayNumber: Int(Rows.today)), current: Layout(groups: [[.command("archive"), .command("reply")]]),
                proposed: Layout(groups: [[.command("reply"), .command("archive")]]), evidence: "{}")
            let id = try #require(try ProposalStore().file([draft], appID: app, on: setup)[0].proposalID)
            let (accepted, version, _) = try ProposalStore().accept(id: id, appID: app, note: "ok", on: guarded)
            #expect(accepted.status == .accepted && version == 2)
            try Self.expectRouted("""
                UPDATE proposals SET status = 'accepted', decided_at = now(), note = 'ok'
                WHERE app_id = \(app) AND proposal_id = \(id)
                """, on: setup, "the accept of a proposal")
            try Self.expectRouted("""
                SELECT p.proposal_id, a.name FROM proposals p JOIN apps a ON a.app_id = p.app_id
                WHERE p.app_id = \(app) AND p.proposal_id = \(id) FOR UPDATE OF p
                """, on: setup, "the lock of a proposal")
        }
    }

    /// Unions of `hll` sketches run on the workers: across apps each shard unites its own sketches
    /// and the coordinator only unites one sketch per shard; within an app the whole aggregate,
    /// the schema's own `rollup_union_cardinality` included, runs on the app's worker.
    @Test func hllUnionsArePushedDownToTheWorkers() throws {
        try StorageFixture.with(prefix: "citus_hll") { fixture in
            let connection = try fixture.connect()
            var apps: [Int32] = []
            for name in ["a", "b", "c", "d"] {
                let app = try LayoutFixtures.createApp(name, on: connection)
                let element = try LayoutFixtures.id("list", in: "element_types", app: app, on: connection)
                let command = try LayoutFixtures.id("open", in: "commands", app: app, on: connection)
                try LayoutFixtures.insertEvents(app: app, day: "2026-11-29", elementType: element, command: command,
                                                count: 40, users: 1...20, on: connection)
                _ = try RollupStore().rollUp(appID: app, on: connection)
                apps.append(app)
            }
            let across = try Self.explain(
                "SELECT hll_cardinality(hll_union_agg(users)) FROM daily_element_usage", on: connection)
            let counts = Self.taskCounts(across)
            #expect(counts.count == 1 && counts[0] > 1, "\(across)")
            // The worker's part of the plan (below the task) aggregates the sketches.
            let workerPart = try #require(across.range(of: "->  Task")).upperBound
            #expect(across[workerPart...].contains("hll_union_agg(users)"), "\(across)")
            #expect(try connection.query("SELECT hll_cardinality(hll_union_agg(users))::int FROM daily_element_usage")[0]
                .decode(Int.self, at: 0) == 20)

            let one = try Self.explain("""
                SELECT element_type_id, rollup_union_cardinality(users) FROM daily_element_usage
                WHERE app_id = \(apps[0]) GROUP BY element_type_id
                """, on: connection)
            #expect(Self.taskCounts(one) == [1], "\(one)")
            let oneWorker = try #require(one.range(of: "->  Task")).upperBound
            #expect(one[oneWorker...].contains("rollup_union_cardinality(users)"), "\(one)")
        }
    }
}

/// `migrate --distributed` on a single PostgreSQL says what it needs and changes nothing.
@Suite(TestDatabase.enabled) struct DistributorRefusalTests {
    @Test(.enabled(if: !TestDatabase.distributed, "the single-node run checks the refusal"))
    func refusedWithoutCitus() throws {
        try TestDatabase.withSchema(prefix: "nocitus") { schema in
            let connection = try schema.connect()
            let hasCitus = try connection.query("SELECT count(*)::int FROM pg_extension WHERE extname = 'citus'")[0]
                .decode(Int.self, at: 0) > 0
            guard !hasCitus else { return }
            let migrator = try Migrator(directory: RepositoryPaths.root().appendingPathComponent("sql"))
            let error = try #require(throws: MigratorError.self) {
                try migrator.migrate(on: connection, distribute: true)
            }
            #expect(error.kind == .citusUnavailable)
            #expect(error.message.contains("no citus extension"))
            #expect(try connection.query("SELECT to_regclass('schema_migrations') IS NULL")[0].decode(Bool.self, at: 0))
            // Migrated without the flag, the schema is plain PostgreSQL and stays so.
            try migrator.migrate(on: connection)
            #expect(try !Distributor.isDistributed(on: connection))
            #expect(try migrator.migrate(on: connection, distribute: false).distribution == nil)
        }
    }
}
