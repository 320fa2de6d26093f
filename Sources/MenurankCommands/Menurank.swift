public import ArgumentParsing
import CBuildInfo
import Foundation
public import Observability

/// The `menurank` command tree: the root command, its global options and the registry of
/// subcommands.
///
/// Each subcommand is declared in a file of its own (`ServeCommand.swift`, `MigrateCommand.swift`,
/// ...) as a `CommandSpec` and listed once in `subcommands`.
public enum Menurank {
    /// The build's version: MENURANK_VERSION when it was built (from the git tags through
    /// `scripts/version`), else 0.0.0-dev.
    public static let version = String(cString: menurank_build_version())

    /// Every subcommand of `menurank`, in the order `menurank --help` lists them. Add a new command
    /// here, declared in its own file.
    static let subcommands: [CommandSpec] = [
        versionCommand,
        serveCommand,
        migrateCommand,
        appsCommand,
        menusCommand,
        layoutsCommand,
        importCommand,
        rollupCommand,
        rankCommand,
        recommendCommand,
        proposalsCommand,
        rolloutsCommand,
        tokensCommand,
        usersCommand,
        lintCommand,
        reportCommand,
        outcomesCommand,
        SimulateCommand.spec,
    ]

    /// The root command.
    public static let root = CommandSpec(
        name: "menurank",
        abstract: "Rank context-menu commands by use and propose better menus.",
        discussion: """
            menurank records which context-menu command people pick on which kind of element, \
            stores the events in PostgreSQL, ranks commands by use and proposes menus that follow \
            Apple's Human Interface Guidelines.

            The database is --database, else DATABASE_URL, else libpq's own variables (PGHOST, \
            PGPORT, PGUSER, PGPASSWORD, PGDATABASE, ...). Options can be given after any \
            subcommand; MENURANK_* variables stand in for absent options.
            """,
        version: version,
        options: globalOptions,
        subcommands: subcommands)

    /// Options of the root that every subcommand accepts too.
    static let globalOptions: [OptionSpec] = [
        database.spec, logFormat.spec, logLevel.spec, verbose.spec,
    ]

    /// Read by `CommandLineTool` when a command fails (it looks for a `verbose` flag by name).
    static let verbose: Option<Bool> = .flag(
        "verbose", environment: ["MENURANK_VERBOSE"], inherited: true,
        help: "On failure, also print the underlying error in full (the server's detail, hint and SQL).")

    static let database: Option<String?> = .string(
        "database", valueName: "url", environment: ["DATABASE_URL"], inherited: true,
        help: "PostgreSQL connection URL; when absent, libpq's PG* variables apply.")
    static let logFormat: Option<LogFormat> = .choice(
        "log-format", valueName: "format", default: .logfmt, environment: ["MENURANK_LOG_FORMAT"], inherited: true,
        help: "Format of log lines on standard error.")
    static let logLevel: Option<Logger.Level> = .choice(
        "log-level", valueName: "level", default: .info, environment: ["MENURANK_LOG_LEVEL"], inherited: true,
        help: "Least important log lines written.")

    /// `menurank version`: the version on standard output.
    static let versionCommand = CommandSpec(
        name: "version",
        abstract: "Show the version of menurank.",
        run: { context in context.console.print(version) })

    /// Runs menurank on `arguments` (without the program name) and returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        await CommandLineTool.main(root: root, arguments: arguments, environment: environment)
    }

    /// The logger the global options ask for (`--log-format`, `--log-level`), writing to standard
    /// error; pass it down as `logger:`.
    public static func logger(label: String = "menurank", values: ParsedValues) -> Logger {
        Logger(label: label, level: values[logLevel], output: .standardError(format: values[logFormat]))
    }

    /// The libpq connection string: `--database` or `DATABASE_URL`; empty when neither is set, which
    /// makes libpq read its own `PG*` variables.
    /// - Throws: `CLIError.usage` for a value that is neither a `postgresql://` (or `postgres://`) URL
    ///   nor libpq's `key=value` settings: `postgres:/oops` is a malformed URL, not a database name.
    public static func connectionString(_ values: ParsedValues) throws -> String {
        let text = values[database] ?? ""
        if let problem = connectionStringProblem(text) { throw CLIError.usage("--database (or DATABASE_URL): \(problem)") }
        return text
    }

    /// Why `text` is no connection string libpq should be given, or nil when it is one (or empty).
    public static func connectionStringProblem(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://") {
            return trimmed.count > (lower.hasPrefix("postgres://") ? 11 : 13) ? nil : "\(trimmed) is a malformed URL"
        }
        if lower.hasPrefix("postgres") && lower.contains(":") || trimmed.contains("://") {
            return "\(trimmed) is a malformed URL; write postgresql://USER@HOST:PORT/DATABASE"
        }
        if !trimmed.contains("=") {
            return "\(trimmed) is neither a URL (postgresql://USER@HOST:PORT/DATABASE) nor key=value settings "
                + "(host=... dbname=...)"
        }
        return nil
    }
}
