import ArgumentParsing
import Testing

@Suite("Help text")
struct HelpFormatterTests {
    /// The help of the command at `path` in the sample tree, as `--help` shows it.
    func help(_ path: [String]) throws -> String {
        guard case .help(let request) = CommandParser.parse(path + ["--help"], root: SampleTree.root) else {
            Issue.record("no help for \(path)")
            return ""
        }
        return HelpFormatter.help(for: request.commands)
    }

    @Test("Root help lists options and subcommands, aligned")
    func rootHelp() throws {
        #expect(try help([]) == """
            OVERVIEW: A sample tool.

            Exercises the parser.

            USAGE: tool [--database <url>] [--verbose] <subcommand>

            OPTIONS:
              --database <url>  Connection URL.
                                (env: DATABASE_URL)
              -v, --verbose     Say more.
              -h, --help        Show help information.
              --version         Show the version.

            SUBCOMMANDS:
              rank              Rank commands by use.
              import            Import event files.
              proposals         Review proposed menus.
              report            Report use between two days.
              help              Show help for a command.

              See 'tool help <subcommand>' for detailed help.

            """)
    }

    @Test("Leaf help shows arguments, value names, defaults, choices and global options")
    func leafHelp() throws {
        #expect(try help(["rank"]) == """
            OVERVIEW: Rank commands by use.

            Counts picks over a window and orders the commands of every element type by
            share.

            USAGE: tool rank --app <app> [<options>] [<element-type>]

            ARGUMENTS:
              <element-type>              Only this element type.

            OPTIONS:
              -a, --app <app>             The app to rank.
              --window <window>           How far back to count.
                                          (range: 1s to 365d; default: 28d)
              --max-groups <n>            Most groups in a menu.
                                          (range: 1 to 10; default: 7)
              --threshold <minimum-share>
                                          Least share kept.
                                          (range: 0 to 1)
              --since <day>               First day counted.
              --format <format>           Output format.
                                          (values: text, markdown, json; default: text)
              --tag <tag> ...             Only events with this tag.
              -n, --dry-run               Print, do not store.
              -h, --help                  Show help information.

            GLOBAL OPTIONS:
              --database <url>            Connection URL.
                                          (env: DATABASE_URL)
              -v, --verbose               Say more.

            """)
    }

    @Test("A nested group points to its subcommands' help")
    func groupHelp() throws {
        #expect(try help(["proposals"]) == """
            OVERVIEW: Review proposed menus.

            USAGE: tool proposals <subcommand>

            OPTIONS:
              -h, --help        Show help information.

            GLOBAL OPTIONS:
              --database <url>  Connection URL.
                                (env: DATABASE_URL)
              -v, --verbose     Say more.

            SUBCOMMANDS:
              list              List proposals.
              show              Show one proposal.

              See 'tool proposals <subcommand> --help' for detailed help.

            """)
    }

    @Test("Usage lines", arguments: [
        (["proposals", "show"], "tool proposals show <id>"),
        (["import"], "tool import [--batch-size <batch-size>] <files> ..."),
        (["report"], "tool report --from <from> --to <to> [--fail-with <fail-with>]"),
    ])
    func usageLines(path: [String], expected: String) {
        var commands = [SampleTree.root]
        for name in path {
            guard let next = commands.last?.subcommand(named: name) else {
                Issue.record("no subcommand \(name)")
                return
            }
            commands.append(next)
        }
        #expect(HelpFormatter.usage(for: commands) == expected)
    }
}
