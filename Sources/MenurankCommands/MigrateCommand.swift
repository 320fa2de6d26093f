import ArgumentParsing
import Foundation
import Postgres
import Storage

/// `menurank migrate [--status] [--distributed]`: applies the schema migrations (sql/NNNN_*.sql),
/// and distributes the schema over a Citus cluster.
extension Menurank {
    static let migrateStatus: Option<Bool> = .flag(
        "status", help: "List applied and pending migrations; change nothing.")
    static let migrateDistributed: Option<Bool> = .flag(
        "distributed", environment: ["MENURANK_DISTRIBUTED"],
        help: "After migrating, distribute the schema over the Citus cluster this coordinator leads (idempotent).")
    static let migrationsDirectory: Option<String?> = .string(
        "migrations", valueName: "dir", environment: ["MENURANK_MIGRATIONS"], help: "Folder of NNNN_name.sql files.")

    static let migrateCommand = CommandSpec(
        name: "migrate",
        abstract: "Apply the database migrations that are not applied yet (or list them with --status).",
        discussion: """
            Each migration file runs in one transaction with its row in schema_migrations; running \
            migrate again changes nothing. The files are found with --migrations, else \
            MENURANK_MIGRATIONS, else next to the binary (../share/menurank/sql) or in the checkout. \
            With --distributed, on a Citus coordinator, the schema is then distributed by app: apps, \
            api_keys and the dictionaries become reference tables, every other table is distributed \
            by app_id, colocated with events. Once distributed, every later migrate distributes the \
            tables new migrations create, with or without the flag.
            """,
        options: [
            migrateStatus.spec,
            migrateDistributed.spec,
            migrationsDirectory.spec,
        ],
        run: { context in try await BlockingThread.run {
                let values = context.values
                let migrator: Migrator
                do {
                    migrator = try Migrator(directory: Migrator.locateDirectory(explicit: values[migrationsDirectory],
                                                                                environment: context.environment))
                } catch {
                    throw CLIError.failure(causedBy: error)
                }
                let connection: PostgresConnection
                do {
                    connection = try PostgresConnection(try CommandDatabase.conninfo(values),
                                                        parameters: CommandDatabase.parameters(application: "menurank-migrate"))
                } catch {
                    throw CLIError.failure("cannot connect to PostgreSQL: \(error)", causedBy: error)
                }
                do {
                    if values[migrateStatus] {
                        let status = try migrator.status(on: connection)
                        for migration in status.applied {
                            context.console.print("applied  \(String(format: "%04d", migration.version)) \(migration.name)  (\(Menurank.timestamp(migration.appliedAt)))")
                        }
                        for migration in status.pending {
                            context.console.print("pending  \(String(format: "%04d", migration.version)) \(migration.name)")
                        }
                        context.console.print("\(status.applied.count) applied, \(status.pending.count) pending")
                        return
                    }
                    let outcome = try migrator.migrate(on: connection, distribute: values[migrateDistributed])
                    let applied = outcome.applied
                    for migration in applied {
                        context.console.print("applied \(String(format: "%04d", migration.version)) \(migration.name)")
                    }
                    context.console.print(applied.isEmpty
                        ? "the database is up to date (\(migrator.migrations.count) migrations)"
                        : "applied \(applied.count) of \(migrator.migrations.count) migrations")
                    if let distribution = outcome.distribution {
                        for step in distribution.placed { context.console.print("citus: \(step)") }
                        for function in distribution.functions { context.console.print("citus: \(function) created on the workers") }
                        context.console.print(distribution.placed.isEmpty
                            ? "citus \(distribution.citusVersion): the schema is distributed (\(distribution.unchanged) tables)"
                            : "citus \(distribution.citusVersion): placed \(distribution.placed.count) tables (\(distribution.unchanged) already placed)")
                    }
                } catch {
                    throw CLIError.failure(causedBy: error)
                }
            } })
}
