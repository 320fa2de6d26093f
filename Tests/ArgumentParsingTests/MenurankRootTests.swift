import Foundation
import ArgumentParsing
import MenurankCommands
import Testing

@Suite("menurank root command")
struct MenurankRootTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) async -> (code: ExitCode, out: String, err: String) {
        let capture = ConsoleCapture()
        let code = await CommandLineTool.run(root: Menurank.root, arguments: arguments, environment: environment,
                                             console: capture.console)
        return (code, capture.output, capture.errorOutput)
    }

    @Test("Every registered command is declared soundly")
    func declarations() {
        #expect(Menurank.root.declarationProblems() == [])
    }

    @Test("--version and the version command print the build's version", arguments: [["--version"], ["version"]])
    func version(arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.code == 0)
        #expect(result.out == Menurank.version + "\n")
        // What MENURANK_VERSION gave the build, else 0.0.0-dev (Package.swift).
        let expected = ProcessInfo.processInfo.environment["MENURANK_VERSION"].flatMap { $0.isEmpty ? nil : $0 } ?? "0.0.0-dev"
        #expect(Menurank.version == expected)
    }

    @Test("Root help documents the database fallbacks and log options")
    func help() async {
        let result = await run(["--help"])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("OVERVIEW: Rank context-menu commands by use and propose better menus.\n"))
        #expect(result.out.contains("""
              --database <url>       PostgreSQL connection URL; when absent, libpq's PG*
                                     variables apply.
                                     (env: DATABASE_URL)
              --log-format <format>  Format of log lines on standard error.
                                     (values: logfmt, json; default: logfmt;
                                     env: MENURANK_LOG_FORMAT)
            """))
        #expect(result.out.contains("PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE"))
        #expect(result.out.contains("  version                Show the version of menurank.\n"))
        #expect(result.out.contains("  See 'menurank help <subcommand>' for detailed help.\n"))
    }

    @Test("Global options are accepted after a subcommand and fall back to the environment")
    func globalOptions() throws {
        let outcome = CommandParser.parse(["version", "--log-format", "json"], root: Menurank.root,
                                          environment: ["DATABASE_URL": "postgres://env/db", "MENURANK_LOG_LEVEL": "debug"])
        guard case .invocation(let invocation) = outcome else {
            Issue.record("expected an invocation")
            return
        }
        #expect(try Menurank.connectionString(invocation.values) == "postgres://env/db")
        let logger = Menurank.logger(values: invocation.values)
        #expect(logger.output.format == .json)
        #expect(logger.level == .debug)
        #expect(logger.label == "menurank")
    }

    @Test("Without --database or DATABASE_URL the connection string is empty, so libpq reads PG*")
    func libpqFallback() throws {
        guard case .invocation(let invocation) = CommandParser.parse(["version"], root: Menurank.root,
                                                                     environment: ["PGHOST": "db"]) else {
            Issue.record("expected an invocation")
            return
        }
        #expect(try Menurank.connectionString(invocation.values) == "")
    }

    @Test("--database takes a postgresql:// URL or key=value settings; anything else is a usage error",
          arguments: [
              ("postgresql://alice@db:5432/menurank", true), ("postgres://db/x", true), ("host=db dbname=x", true),
              ("", true), ("postgres:/oops", false), ("postgresql:/db", false), ("mysql://db/x", false),
              ("menurank", false), ("postgres://", false),
          ])
    func databaseURL(text: String, valid: Bool) throws {
        #expect((Menurank.connectionStringProblem(text) == nil) == valid, "\(text)")
        guard case .invocation(let invocation) = CommandParser.parse(["rank", "--app", "a", "--database", text],
                                                                     root: Menurank.root, environment: [:]) else {
            Issue.record("expected an invocation")
            return
        }
        if valid {
            #expect(try Menurank.connectionString(invocation.values) == text)
        } else {
            #expect(throws: CLIError.self) { try Menurank.connectionString(invocation.values) }
        }
    }

    @Test("Usage errors exit 64 with a suggestion")
    func usageError() async {
        let result = await run(["--log-level", "verbose", "version"])
        #expect(result.code == 64)
        #expect(result.err.hasPrefix("Error: The value 'verbose' is invalid for '--log-level <level>': expected one of: trace, debug, info, notice, warning, error.\n"))
        let unknown = await run(["verison"])
        #expect(unknown.code == 64)
        #expect(unknown.err.hasPrefix("Error: Unknown subcommand 'verison'. Did you mean 'version'?\n"))
    }
}
