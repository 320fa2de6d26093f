import Storage
import Testing

/// The rules that place menurank's tables on Citus, without a cluster.
struct DistributionPlanTests {
    typealias Table = DistributionPlan.Table

    /// The tables of sql/ as a fresh single-node schema has them.
    static let fresh: [Table] = [
        "admin_tokens", "api_keys", "apps", "block_command_usage", "block_element_usage", "commands", "contexts",
        "daily_command_usage", "daily_element_usage", "element_types", "events", "layouts", "manifests",
        "menu_commands", "proposals", "rollup_blocks", "rollup_queue",
    ].map { Table(name: $0, hasAppID: true, placement: .local) }
        + [Table(name: "schema_migrations", hasAppID: false, placement: .local)]

    @Test func freshSchema() throws {
        let steps = try DistributionPlan.steps(for: Self.fresh)
        #expect(steps.prefix(6).map(\.table)
            == ["apps", "api_keys", "admin_tokens", "element_types", "commands", "contexts"])
        #expect(steps.prefix(6).allSatisfy { $0.action == .reference })
        #expect(steps[6] == .init(table: "events", action: .distribute(column: "app_id", colocateWith: nil)))
        let rest = steps.dropFirst(7)
        #expect(rest.map(\.table) == [
            "block_command_usage", "block_element_usage", "daily_command_usage", "daily_element_usage", "layouts",
            "manifests", "menu_commands", "proposals", "rollup_blocks", "rollup_queue",
        ])
        #expect(rest.allSatisfy { $0.action == .distribute(column: "app_id", colocateWith: "events") })
        #expect(!steps.contains { $0.table == "schema_migrations" })
        #expect(steps[0].description == "apps: reference table")
        #expect(steps[7].description == "block_command_usage: distributed by app_id, colocated with events")
    }

    /// After distribution nothing is left to do; a table a later migration adds is distributed
    /// alone, colocated with the events already distributed.
    @Test func idempotentAndIncremental() throws {
        let placed = Self.fresh.map { table -> Table in
            var table = table
            if DistributionPlan.referenceTables.contains(table.name) {
                table.placement = .reference
            } else if table.name != "schema_migrations" {
                table.placement = .distributed(column: "app_id", colocation: 3)
            }
            return table
        }
        #expect(try DistributionPlan.steps(for: placed).isEmpty)
        // A table with a foreign key to a reference table is a Citus local table until distributed.
        let later = placed + [Table(name: "outcomes", hasAppID: true, placement: .citusLocal)]
        #expect(try DistributionPlan.steps(for: later)
            == [.init(table: "outcomes", action: .distribute(column: "app_id", colocateWith: "events"))])
    }

    @Test func rulesBroken() throws {
        func failure(_ tables: [Table]) throws -> String {
            let error = try #require(throws: MigratorError.self) { try DistributionPlan.steps(for: tables) }
            #expect(error.kind == .distributionFailed)
            return error.message
        }
        #expect(try failure(Self.fresh + [Table(name: "settings", hasAppID: false, placement: .local)])
            .contains("settings has no app_id column"))
        #expect(try failure(Self.fresh.filter { $0.name != "events" }).contains("no events table"))
        #expect(try failure(Self.fresh.filter { $0.name != "apps" }).contains("no apps table"))
        let apart = Self.fresh.map { table -> Table in
            var table = table
            if table.name == "events" { table.placement = .distributed(column: "app_id", colocation: 3) }
            if table.name == "proposals" { table.placement = .distributed(column: "app_id", colocation: 4) }
            return table
        }
        #expect(try failure(apart).contains("proposals is distributed by app_id apart from events"))
        let referenced = Self.fresh.map { table -> Table in
            var table = table
            if table.name == "layouts" { table.placement = .reference }
            return table
        }
        #expect(try failure(referenced).contains("layouts is a reference table"))
        let distributedApps = Self.fresh.map { table -> Table in
            var table = table
            if table.name == "apps" { table.placement = .distributed(column: "app_id", colocation: 3) }
            return table
        }
        #expect(try failure(distributedApps).contains("apps is distributed, but it must be a reference table"))
    }
}
