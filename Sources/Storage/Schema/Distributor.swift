public import Postgres

/// Distributes menurank's schema over a Citus cluster by app (`menurank migrate --distributed`).
///
/// Run on a Citus coordinator, in the schema the migrations built (the first of the
/// `search_path`). What goes where is decided by `DistributionPlan` from the catalog:
///
/// - `apps`, `api_keys`, `admin_tokens` and the dictionaries (`element_types`, `commands`,
///   `contexts`) become reference tables, a copy on every node: they are small, bounded per app,
///   written rarely, and keys and tokens are looked up by hash before the app is known;
/// - every other table with an `app_id` column is hash-distributed by `app_id`, all colocated with
///   `events` (a partitioned table, distributed with its daily partitions in a colocation group of
///   its own; Citus distributes the partitions created later too), so the rows of one app live on one shard group and a per-app
///   statement is routed to one worker;
/// - `schema_migrations` stays on the coordinator; any other table without `app_id` breaks the
///   schema's rules and is an error rather than silently left behind.
///
/// The aggregates of the schema (`rollup_union`, ...) are created on the workers too, so the
/// statements that use them run there.
///
/// Idempotent: tables already placed as planned are left alone, so running it after every
/// migration distributes just what a new migration created (`Migrator` does so on a distributed
/// schema). One transaction, under the migrator's advisory lock.
public struct Distributor: Sendable {
    public init() {}

    /// What a run did.
    public struct Report: Sendable, Equatable {
        /// The Citus version of the coordinator.
        public var citusVersion: String
        /// The tables placed by this run, in the order they were placed.
        public var placed: [DistributionPlan.Step] = []
        /// The aggregates or functions created on the workers by this run.
        public var functions: [String] = []
        /// How many tables were already placed as planned.
        public var unchanged: Int = 0
    }

    /// True when the current schema's `events` is a Citus table, that is when `distribute` has run
    /// on this schema. False on a plain PostgreSQL.
    /// - Throws: `MigratorError` `.migrationFailed` when the catalog cannot be read.
    public static func isDistributed(on connection: PostgresConnection) throws(MigratorError) -> Bool {
        try wrap(.migrationFailed, "reading whether the schema is distributed failed") {
            // Two statements: on a plain PostgreSQL the second would not even parse.
            guard try connection.query("SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL AS citus")
                .first?.decode(Bool.self, column: "citus") == true
            else { return false }
            return try connection.query("""
                SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition
                               WHERE logicalrelid = to_regclass(quote_ident(current_schema()) || '.events')) AS distributed
                """).first?.decode(Bool.self, column: "distributed") == true
        }
    }

    /// Places every table of the current schema as `DistributionPlan` says.
    /// - Throws: `MigratorError` `.citusUnavailable` (a plain PostgreSQL, or a Citus worker),
    ///   `.distributionFailed` (a table breaks the rules, or Citus refused; nothing changed).
    @discardableResult
    public func distribute(on connection: PostgresConnection) throws(MigratorError) -> Report {
        let version = try Self.citusVersion(on: connection)
        return try Self.wrap {
            try connection.withTransaction { transaction in
                _ = try transaction.query("SELECT pg_advisory_xact_lock(\(Migrator.lockKey))")
                try Self.configure(transaction)
                let tables = try Self.tables(on: transaction)
                let steps = try DistributionPlan.steps(for: tables)
                var report = Report(citusVersion: version, unchanged: tables.count - steps.count)
                for step in steps {
                    let table = try Self.qualified(step.table, on: transaction)
                    switch step.action {
                    case .reference:
                        try transaction.execute("SELECT create_reference_table(\(table)::regclass)")
                    case .distribute(let column, let colocateWith):
                        // The anchor starts a colocation group of its own ('none'), not Citus' default
                        // group shared by every table distributed by an int4 with the same shard count:
                        // Citus locks an arbitrary member of a group whenever it adds a table to it, so
                        // sharing one would tie menurank's DDL (partitions made daily, migrations) to
                        // that of unrelated tables, and shard moves would carry them together.
                        let with = try colocateWith.map { try Self.qualified($0, on: transaction) } ?? "none"
                        try transaction.execute("""
                            SELECT create_distributed_table(\(table)::regclass, \(column), colocate_with => \(with))
                            """)
                    }
                    report.placed.append(step)
                }
                report.functions = try Self.distributeAggregates(on: transaction)
                return report
            }
        }
    }

    /// Settings for a transaction that changes a distributed schema (a migration, a distribution):
    /// - one connection per worker (`multi_shard_modify_mode` sequential), since DDL on reference
    ///   tables and on the tables that reference them may not mix with parallel connections;
    /// - a local table with a foreign key to a reference table (`apps`) stays a plain table
    ///   (`enable_local_reference_table_foreign_keys` off), instead of being made a Citus local
    ///   table, which Citus cannot later distribute when it has an identity column.
    static func configure(_ transaction: PostgresConnection) throws {
        try transaction.execute(unsafeSQL: "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'")
        try transaction.execute(unsafeSQL: "SET LOCAL citus.enable_local_reference_table_foreign_keys TO off")
    }

    /// The Citus version, after checking that the connection reaches a Citus coordinator.
    static func citusVersion(on connection: PostgresConnection) throws(MigratorError) -> String {
        let version = try wrap {
            try connection.query("SELECT extversion FROM pg_extension WHERE extname = 'citus'").first
                .map { try $0.decode(String.self, column: "extversion") }
        }
        guard let version else {
            throw MigratorError(
                kind: .citusUnavailable,
                message: "the database has no citus extension: --distributed needs a Citus coordinator (shared_preload_libraries = 'citus', CREATE EXTENSION citus on every node, the workers added with citus_add_node); on a single PostgreSQL run migrate without --distributed")
        }
        let coordinator = try wrap {
            try connection.query("SELECT citus_is_coordinator() AS coordinator").first?.decode(Bool.self, column: "coordinator")
                ?? false
        }
        guard coordinator else {
            throw MigratorError(
                kind: .citusUnavailable,
                message: "this is a Citus worker node: run migrate --distributed against the coordinator")
        }
        return version
    }

    /// The ordinary and partitioned tables of the current schema (not the partitions), with their
    /// placement on the cluster.
    static func tables(on connection: PostgresConnection) throws -> [DistributionPlan.Table] {
        try connection.query("""
            SELECT c.relname::text,
                   EXISTS (SELECT 1 FROM pg_attribute a
                           WHERE a.attrelid = c.oid AND a.attname = 'app_id' AND NOT a.attisdropped) AS has_app_id,
                   p.partmethod::text, p.repmodel::text,
                   CASE WHEN p.partmethod = 'h' THEN column_to_column_name(p.logicalrelid, p.partkey) END AS column_name,
                   p.colocationid
            FROM pg_class c
            LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
              AND NOT c.relispartition
            ORDER BY c.relname
            """).map { row in
            let method: String? = try row.decode(column: "partmethod")
            let replication: String? = try row.decode(column: "repmodel")
            let placement: DistributionPlan.Placement
            switch (method, replication) {
            case (nil, _): placement = .local
            case ("h", _):
                placement = .distributed(column: try row.decode(column: "column_name"),
                                         colocation: try row.decode(column: "colocationid"))
            case ("n", "t"): placement = .reference
            default: placement = .citusLocal
            }
            return DistributionPlan.Table(name: try row.decode(column: "relname"), hasAppID: try row.decode(column: "has_app_id"),
                                          placement: placement)
        }
    }

    /// Creates the schema's aggregates on the workers (`create_distributed_function`) unless Citus
    /// knows them already; returns their signatures. An extension's own aggregates (`hll`'s, when
    /// the schema is `public` where the extension lives) are left to the extension, which exists on
    /// every node.
    static func distributeAggregates(on connection: PostgresConnection) throws -> [String] {
        let missing = try connection.query("""
            SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
            WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind = 'a'
              AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object o
                              WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid)
              AND NOT EXISTS (SELECT 1 FROM pg_depend d
                              WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
            ORDER BY 1
            """).map { try $0.decode(String.self, column: "signature") }
        for signature in missing {
            try connection.execute("SELECT create_distributed_function(\(signature)::regprocedure)")
        }
        return missing
    }

    /// `schema.table`, quoted, in the current schema.
    static func qualified(_ table: String, on connection: PostgresConnection) throws -> String {
        try connection.query("SELECT quote_ident(current_schema()) || '.' || quote_ident(\(table)) AS qualified")[0]
            .decode(column: "qualified")

    }

    /// Runs `body`, turning any other error than a `MigratorError` into one of `kind` with `message`
    /// (the database error as its `underlying`).
    static func wrap<T>(_ kind: MigratorError.Kind = .distributionFailed, _ message: String = "distributing the schema failed",
                        _ body: () throws -> T) throws(MigratorError) -> T {
        do {
            return try body()
        } catch let error as MigratorError {
            throw error
        } catch {
            throw MigratorError(kind: kind, message: message, underlying: error)
        }
    }
}
