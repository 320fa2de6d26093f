/// Where each table of menurank's schema goes on a Citus cluster, and in which order: a pure
/// function of the catalog, so the rules are tested without a cluster (`Distributor` runs it).
///
/// Rules (README, "Scaling out"):
/// - `referenceTables` become reference tables, in that order (`apps` first: the others have
///   foreign keys to it, and a reference table may only reference reference tables): tables that
///   are small, written rarely, or looked up without an app id (`api_keys` and `admin_tokens` by
///   hash; an admin token's app is NULL when it reviews every app);
/// - `events` is distributed by `app_id` first, then every other table with an `app_id` column,
///   colocated with it;
/// - `localTables` stay on the coordinator;
/// - any other table (no `app_id`) is an error: every app-scoped table leads with `app_id`, and a
///   global table must be named here as a reference or local table.
public enum DistributionPlan {
    /// The tables that become reference tables, in creation order.
    public static let referenceTables = ["apps", "api_keys", "admin_tokens", "element_types", "commands", "contexts"]
    /// The table the distributed ones are colocated with.
    public static let anchorTable = "events"
    /// The distribution column of every distributed table.
    public static let distributionColumn = "app_id"
    /// Tables that stay on the coordinator only.
    public static let localTables: Set<String> = ["schema_migrations", "closed_event_days", "nightly_runs"]
    /// Distributed tables that other distributed tables reference by foreign key (`rollout_decisions`
    /// -> `rollouts`), placed first.
    public static let referencedTables: [String] = ["rollouts"]

    /// Where a table is now.
    public enum Placement: Hashable, Sendable {
        /// A plain table (on the coordinator only, unknown to Citus).
        case local
        /// A table Citus manages on the coordinator only (made so by a foreign key to a reference table).
        case citusLocal
        /// A copy on every node.
        case reference
        /// Hash-distributed by `column`; tables with the same `colocation` share their shards' placement.
        case distributed(column: String, colocation: Int32)
    }

    /// A table of the schema.
    public struct Table: Hashable, Sendable {
        public var name: String
        public var hasAppID: Bool
        public var placement: Placement

        public init(name: String, hasAppID: Bool, placement: Placement) {
            self.name = name
            self.hasAppID = hasAppID
            self.placement = placement
        }
    }

    /// What to do with one table.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        public enum Action: Hashable, Sendable {
            case reference
            /// `create_distributed_table(table, column, colocate_with => colocateWith ?? 'none')`: the
            /// anchor (`colocateWith` nil) starts a colocation group of menurank's tables alone.
            case distribute(column: String, colocateWith: String?)
        }

        public var table: String
        public var action: Action

        public init(table: String, action: Action) {
            self.table = table
            self.action = action
        }

        public var description: String {
            switch action {
            case .reference: "\(table): reference table"
            case .distribute(let column, let with):
                "\(table): distributed by \(column)" + (with.map { ", colocated with \($0)" } ?? "")
            }
        }
    }

    /// The steps that place every table of `tables` as the rules say; empty when all are placed.
    /// - Throws: `MigratorError` `.distributionFailed` when a table breaks the rules or is already
    ///   placed otherwise than the rules say.
    public static func steps(for tables: [Table]) throws(MigratorError) -> [Step] {
        var byName: [String: Table] = [:]
        for table in tables { byName[table.name] = table }
        guard let anchor = byName[anchorTable] else {
            throw failure("the schema has no \(anchorTable) table: run the migrations first")
        }
        var steps: [Step] = []
        guard byName["apps"] != nil else { throw failure("the schema has no apps table: run the migrations first") }
        for name in referenceTables {
            guard let table = byName[name] else { continue }
            switch table.placement {
            case .reference: continue
            case .local, .citusLocal: steps.append(Step(table: name, action: .reference))
            case .distributed: throw failure("\(name) is distributed, but it must be a reference table")
            }
        }

        let anchorColocation: Int32?
        switch anchor.placement {
        case .distributed(let column, let colocation):
            guard column == distributionColumn else {
                throw failure("\(anchorTable) is distributed by \(column), not \(distributionColumn)")
            }
            anchorColocation = colocation
        case .reference:
            throw failure("\(anchorTable) is a reference table, but it must be distributed by \(distributionColumn)")
        case .local, .citusLocal:
            guard anchor.hasAppID else { throw failure("\(anchorTable) has no \(distributionColumn) column") }
            steps.append(Step(table: anchorTable, action: .distribute(column: distributionColumn, colocateWith: nil)))
            anchorColocation = nil
        }

        let placed = Set(referenceTables + [anchorTable]).union(localTables)
        // A table that others reference by foreign key is distributed before them (Citus needs the
        // referenced table placed first); the rest by name.
        func rank(_ name: String) -> Int { referencedTables.contains(name) ? 0 : 1 }
        for table in tables.sorted(by: { (rank($0.name), $0.name) < (rank($1.name), $1.name) })
            where !placed.contains(table.name)
        {
            switch table.placement {
            case .distributed(let column, let colocation):
                guard column == distributionColumn, colocation == anchorColocation else {
                    throw failure("\(table.name) is distributed by \(column) apart from \(anchorTable); it must be distributed by \(distributionColumn), colocated with \(anchorTable)")
                }
            case .reference:
                throw failure("\(table.name) is a reference table; only \(referenceTables.joined(separator: ", ")) may be (add it to DistributionPlan.referenceTables if it must)")
            case .local, .citusLocal:
                guard table.hasAppID else {
                    throw failure("\(table.name) has no \(distributionColumn) column: every app-scoped table leads with \(distributionColumn), and a global table must be listed in DistributionPlan")
                }
                steps.append(Step(table: table.name, action: .distribute(column: distributionColumn, colocateWith: anchorTable)))
            }
        }
        return steps
    }

    private static func failure(_ message: String) -> MigratorError {
        MigratorError(kind: .distributionFailed, message: message)
    }
}
