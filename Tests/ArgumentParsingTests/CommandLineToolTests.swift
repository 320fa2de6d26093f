import ArgumentParsing
import Testing

@Suite("Command-line tool: output and exit codes")
struct CommandLineToolTests {
    /// Runs the sample tool and returns its exit code, standard output and standard error.
    func run(_ arguments: [String], environment: [String: String] = [:]) async -> (code: ExitCode, out: String, err: String) {
        let capture = ConsoleCapture()
        let code = await CommandLineTool.run(root: SampleTree.root, arguments: arguments, environment: environment,
                                             console: capture.console)
        return (code, capture.output, capture.errorOutput)
    }

    @Test("A command runs with its values and exits 0")
    func runs() async {
        let result = await run(["proposals", "show", "7"])
        #expect(result.code == .success)
        #expect(result.out == "tool proposals show: id=7\n")
        #expect(result.err == "")
    }

    @Test("Help goes to standard output with exit 0", arguments: [["--help"], ["help", "rank"], ["rank", "-h"], ["proposals"]])
    func help(arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("OVERVIEW: "))
        #expect(result.err == "")
    }

    @Test("--version prints the version")
    func version() async {
        let result = await run(["--version"])
        #expect(result.code == 0)
        #expect(result.out == "1.2.3\n")
    }

    @Test("A usage error goes to standard error with the usage line, a hint and exit 64")
    func usageError() async {
        let result = await run(["rank", "--app", "mail", "--windw", "2d"])
        #expect(result.code == .usage)
        #expect(result.code.rawValue == 64)
        #expect(result.out == "")
        #expect(result.err == """
            Error: Unknown option '--windw'. Did you mean '--window'?
            Usage: tool rank --app <app> [<options>] [<element-type>]
              See 'tool rank --help' for more information.

            """)
    }

    @Test("An unknown subcommand gets a suggestion and exit 64")
    func unknownSubcommand() async {
        let result = await run(["proposals", "lsit"])
        #expect(result.code == 64)
        #expect(result.err == """
            Error: Unknown subcommand 'lsit'. Did you mean 'list'?
            Usage: tool proposals <subcommand>
              See 'tool proposals --help' for more information.

            """)
    }

    @Test("The validate hook runs before run and its usage error exits 64")
    func validateHook() async {
        let rejected = await run(["report", "--from", "2026-11-30", "--to", "2026-11-01"])
        #expect(rejected.code == 64)
        #expect(rejected.out == "")
        #expect(rejected.err == """
            Error: --from must not be after --to.
            Usage: tool report --from <from> --to <to> [--fail-with <fail-with>]
              See 'tool report --help' for more information.

            """)
        let accepted = await run(["report", "--from", "2026-11-01", "--to", "2026-11-30"])
        #expect(accepted.code == 0)
        #expect(accepted.out == "tool report: from=2026-11-01 to=2026-11-30\n")
    }

    @Test("Errors thrown by run choose the exit code", arguments: [
        (["--fail-with", "1"], ExitCode.failure, "Error: failed with 1\n"),
        (["--fail-with", "5"], ExitCode(5), "Error: failed with 5\n"),
        (["--fail-with", "3"], ExitCode(3), ""),
    ])
    func runErrors(extra: [String], code: ExitCode, err: String) async {
        let result = await run(["report", "--from", "2026-11-01", "--to", "2026-11-02"] + extra)
        #expect(result.code == code)
        #expect(result.err == err)
    }

    @Test("Any other error exits 1 with its description")
    func otherErrors() async {
        let result = await run(["report", "--from", "2026-11-01", "--to", "2026-11-01"])
        #expect(result.code == 1)
        #expect(result.err == "Error: the sample failed\n")
    }

    @Test("The environment fills absent options when the command runs")
    func environment() async {
        let result = await run(["import", "a.json"], environment: ["DATABASE_URL": "postgres://env"])
        #expect(result.out == "tool import: batch-size=500 database=postgres://env files=[a.json]\n")
    }
}
