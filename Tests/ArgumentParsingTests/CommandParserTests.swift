import ArgumentParsing
import Suggestions
import Testing

/// A one-line summary of a parse, so tables of cases compare plain text.
func summary(_ outcome: ParseOutcome) -> String {
    switch outcome {
    case .invocation(let invocation):
        invocation.commandPath.joined(separator: " ") + ": " + invocation.values.description
    case .help(let request):
        "help " + request.commandPath.joined(separator: " ")
    case .version(let version):
        "version " + version
    case .usageError(let failure):
        "error " + failure.commandPath.joined(separator: " ") + ": " + failure.message
    }
}

@Suite("Command parser")
struct CommandParserTests {
    static let rankDefaults = "format=text max-groups=7 window=28d"

    @Test("Options, flags and positionals", arguments: [
        (["rank", "--app", "mail"], "tool rank: app=mail \(rankDefaults)"),
        (["rank", "--app=mail"], "tool rank: app=mail \(rankDefaults)"),
        (["rank", "-a", "mail"], "tool rank: app=mail \(rankDefaults)"),
        (["rank", "-amail"], "tool rank: app=mail \(rankDefaults)"),
        (["rank", "-a", "mail", "-n"], "tool rank: app=mail dry-run=true \(rankDefaults)"),
        (["rank", "-nv", "-a", "mail"], "tool rank: app=mail dry-run=true format=text max-groups=7 verbose=true window=28d"),
        (["rank", "--app", "mail", "--window", "1h30m", "--max-groups", "3"],
         "tool rank: app=mail format=text max-groups=3 window=1h30m"),
        (["rank", "--app", "mail", "--window=12h", "--format", "json", "--threshold", "0.05"],
         "tool rank: app=mail format=json max-groups=7 threshold=0.05 window=12h"),
        (["rank", "--app", "mail", "--since", "2024-02-29"], "tool rank: app=mail \(rankDefaults.replacingOccurrences(of: "max-groups=7", with: "max-groups=7 since=2024-02-29"))"),
        (["rank", "--app", "a", "--app", "b"], "tool rank: app=b \(rankDefaults)"),
        (["rank", "--app", "mail", "--tag", "x", "--tag=y"], "tool rank: app=mail \(rankDefaults.replacingOccurrences(of: " window", with: " tag=[x, y] window"))"),
        (["rank", "--app", "mail", "mail.message"], "tool rank: app=mail element-type=mail.message \(rankDefaults)"),
        (["rank", "--app", "mail", "--", "--odd"], "tool rank: app=mail element-type=--odd \(rankDefaults)"),
        (["--database", "postgres://db", "rank", "--app", "mail"], "tool rank: app=mail database=postgres://db \(rankDefaults)"),
        (["rank", "--database=postgres://db", "--app", "mail"], "tool rank: app=mail database=postgres://db \(rankDefaults)"),
        (["import", "a.json", "b.json"], "tool import: batch-size=500 files=[a.json, b.json]"),
        (["import", "--", "-", "-x.json"], "tool import: batch-size=500 files=[-, -x.json]"),
        (["proposals", "show", "42"], "tool proposals show: id=42"),
        (["proposals", "list", "--status", "open"], "tool proposals list: status=open"),
        (["-v", "proposals", "list"], "tool proposals list: verbose=true"),
    ])
    func parses(arguments: [String], expected: String) {
        #expect(summary(CommandParser.parse(arguments, root: SampleTree.root)) == expected)
    }

    @Test("Help, version and groups", arguments: [
        ([], "help tool"),
        (["--help"], "help tool"),
        (["-h"], "help tool"),
        (["--version"], "version 1.2.3"),
        (["rank", "--help"], "help tool rank"),
        (["rank", "--app", "mail", "-h"], "help tool rank"),
        (["proposals"], "help tool proposals"),
        (["proposals", "show", "-h"], "help tool proposals show"),
        (["help"], "help tool"),
        (["help", "rank"], "help tool rank"),
        (["help", "proposals", "show"], "help tool proposals show"),
        (["rank", "--", "--help"], "error tool rank: Missing expected option '--app <app>'."),
    ])
    func helpAndVersion(arguments: [String], expected: String) {
        #expect(summary(CommandParser.parse(arguments, root: SampleTree.root)) == expected)
    }

    @Test("Usage errors", arguments: [
        (["rnak"], "error tool: Unknown subcommand 'rnak'. Did you mean 'rank'?"),
        (["proposals", "shwo", "1"], "error tool proposals: Unknown subcommand 'shwo'. Did you mean 'show'?"),
        (["frobnicate"], "error tool: Unknown subcommand 'frobnicate'."),
        (["help", "rnak"], "error tool: Unknown subcommand 'rnak'. Did you mean 'rank'?"),
        (["rank", "--ap", "mail"], "error tool rank: Unknown option '--ap'. Did you mean '--app'?"),
        (["rank", "--windw", "2d"], "error tool rank: Unknown option '--windw'. Did you mean '--window'?"),
        (["rank", "--hepl"], "error tool rank: Unknown option '--hepl'. Did you mean '--help'?"),
        (["--verison"], "error tool: Unknown option '--verison'. Did you mean '--version'?"),
        (["rank", "--max"], "error tool rank: Unknown option '--max'. Did you mean '--max-groups'?"),
        (["rank", "-x"], "error tool rank: Unknown option '-x'."),
        (["rank"], "error tool rank: Missing expected option '--app <app>'."),
        (["rank", "--app"], "error tool rank: Missing value for option '--app <app>'."),
        (["rank", "--app", "--dry-run"], "error tool rank: Missing value for option '--app <app>'."),
        (["rank", "--app", "m", "--dry-run=yes"], "error tool rank: Option '--dry-run' takes no value."),
        (["rank", "--app", "m", "--max-groups", "seven"],
         "error tool rank: The value 'seven' is invalid for '--max-groups <n>': expected an integer."),
        (["rank", "--app", "m", "--window", "28x"],
         "error tool rank: The value '28x' is invalid for '--window <window>': expected a duration such as 28d, 12h, 90m or 1h30m."),
        (["rank", "--app", "m", "--since", "2023-02-29"],
         "error tool rank: The value '2023-02-29' is invalid for '--since <day>': expected a date as YYYY-MM-DD."),
        (["rank", "--app", "m", "--format", "jsno"],
         "error tool rank: The value 'jsno' is invalid for '--format <format>': expected one of: text, markdown, json. Did you mean 'json'?"),
        (["rank", "--app", "m", "--max-groups", "-3"],
         "error tool rank: The value '-3' is out of range for '--max-groups <n>': expected 1 to 10."),
        (["rank", "--app", "m", "--max-groups", "99999999999999999999"],
         "error tool rank: The value '99999999999999999999' is invalid for '--max-groups <n>': expected an integer."),
        (["rank", "--app", "m", "--threshold", "1e-300", "--window", "366d"],
         "error tool rank: The value '366d' is out of range for '--window <window>': expected 1s to 365d."),
        (["rank", "--app", "m", "--threshold", "1.5"],
         "error tool rank: The value '1.5' is out of range for '--threshold <minimum-share>': expected 0 to 1."),
        (["proposals", "show", "0"],
         "error tool proposals show: The value '0' is out of range for '<id>': expected 1 to \(Int.max)."),
        (["rank", "--app", "m", "a", "b"], "error tool rank: Unexpected argument 'b'."),
        (["import"], "error tool import: Missing expected argument '<files> ...'."),
        (["proposals", "show"], "error tool proposals show: Missing expected argument '<id>'."),
        (["proposals", "show", "x"],
         "error tool proposals show: The value 'x' is invalid for '<id>': expected an integer."),
        (["rank", "--version"], "error tool rank: Unknown option '--version'."),
    ])
    func usageErrors(arguments: [String], expected: String) {
        #expect(summary(CommandParser.parse(arguments, root: SampleTree.root)) == expected)
    }

    @Test("Environment variables stand in for absent options, after the command line")
    func environmentFallback() {
        let environment = ["DATABASE_URL": "postgres://env", "TOOL_BATCH_SIZE": "50"]
        #expect(summary(CommandParser.parse(["import", "a"], root: SampleTree.root, environment: environment))
                == "tool import: batch-size=50 database=postgres://env files=[a]")
        #expect(summary(CommandParser.parse(["import", "--batch-size", "5", "--database", "postgres://flag", "a"],
                                            root: SampleTree.root, environment: environment))
                == "tool import: batch-size=5 database=postgres://flag files=[a]")
        #expect(summary(CommandParser.parse(["import", "a"], root: SampleTree.root, environment: ["TOOL_BATCH_SIZE": "many"]))
                == "error tool import: The value 'many' is invalid for '--batch-size <batch-size>' (from environment variable TOOL_BATCH_SIZE): expected an integer.")
        #expect(summary(CommandParser.parse(["import", "a"], root: SampleTree.root, environment: ["TOOL_BATCH_SIZE": "0"]))
                == "error tool import: The value '0' is out of range for '--batch-size <batch-size>' (from environment variable TOOL_BATCH_SIZE): expected 1 to 10000.")
    }

    @Test("Typed getters read what was declared")
    func typedGetters() throws {
        let outcome = CommandParser.parse(
            ["rank", "-a", "mail", "--since", "2026-11-30", "--threshold", "0.25", "--tag", "a", "--tag", "b",
             "-n", "mail.message"], root: SampleTree.root)
        guard case .invocation(let invocation) = outcome else {
            Issue.record("expected an invocation, got \(summary(outcome))")
            return
        }
        let values = invocation.values
        #expect(values.string("app") == "mail")
        #expect(values.int("max-groups") == 7)
        #expect(values.double("threshold") == 0.25)
        #expect(values.duration("window") == .seconds(28 * 86_400))
        #expect(values.date("since")?.dayNumber == 1_795_996_800 / 86_400)
        #expect(values.strings("tag") == ["a", "b"])
        #expect(values.flag("dry-run"))
        #expect(!values.flag("verbose"))
        #expect(values.string("database") == nil)
        #expect(!values.hasValue("database"))
        #expect(values.choice("format", as: SampleFormat.self) == .text)
        #expect(values.string("element-type") == "mail.message")
        #expect(values.positional(0) == "mail.message")
        #expect(values.positional(1) == nil)
        #expect(invocation.command.name == "rank")
    }

    @Test("Durations", arguments: [
        ("28d", Duration.seconds(28 * 86_400)), ("12h", .seconds(43_200)), ("90m", .seconds(5_400)),
        ("1h30m", .seconds(5_400)), ("2w", .seconds(1_209_600)), ("45s", .seconds(45)), ("250ms", .milliseconds(250)),
    ])
    func durations(text: String, expected: Duration) {
        #expect(ValueKind.duration.parseForTest(text) == .duration(expected))
    }

    @Test("Invalid durations and dates", arguments: [
        (ValueKind.duration, ""), (.duration, "28"), (.duration, "d"), (.duration, "1m2h"), (.duration, "1h1h"),
        (.duration, "1.5h"), (.duration, "-1d"), (.duration, "99999999999999w"),
        (.date, "2026-13-01"), (.date, "2026-1-01"), (.date, "2026-04-31"), (.date, "1900-02-29"), (.date, "20261130"),
    ])
    func invalidValues(kind: ValueKind, text: String) {
        #expect(kind.parseForTest(text) == nil)
    }

    @Test("Suggestions need a close name", arguments: [
        ("sevre", ["serve", "migrate"], "serve"), ("mgirate", ["serve", "migrate"], "migrate"),
        ("report", ["rank", "recommend"], nil), ("rec", ["rank", "recommend"], "recommend"),
        ("re", ["rank", "recommend", "report"], nil), ("x", ["y"], "y"),
    ] as [(String, [String], String?)])
    func suggestions(typed: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: typed, among: candidates) == expected)
    }

    @Test("The sample tree is declared soundly, and mistakes are found")
    func declarations() {
        #expect(SampleTree.root.declarationProblems() == [])
        let broken = CommandSpec(
            name: "bad", abstract: "",
            options: [
                .option("window", .duration, default: "soon", help: ""),
                .option("help", help: ""),
                .option("level", .choice([]), help: ""),
                .option("count", .int, default: "0", range: .ints(1...5), help: ""),
                .option("share", .double, range: .ints(1...5), help: ""),
                .flag("quiet", short: "h", help: ""),
            ],
            arguments: [.variadic("files", help: ""), .argument("last", help: "")],
            run: { _ in })
        #expect(broken.declarationProblems() == [
            "bad: missing abstract",
            "bad: default 'soon' of --window is not a duration such as 28d, 12h, 90m or 1h30m",
            "bad: --window is a number without a range",
            "bad: option '--help' clashes with another name",
            "bad: --level has no choices",
            "bad: default '0' of --count is outside 1 to 5",
            "bad: the range of --share is not of its kind",
            "bad: short option '-h' clashes or is invalid",
            "bad: only the last argument may be variadic",
            "bad: required argument 'last' follows an optional one",
        ])
    }
}

enum SampleFormat: String {
    case text, markdown, json
}

extension ValueKind {
    /// The parse of `text` through a one-option command, so tests reach value parsing from outside.
    func parseForTest(_ text: String) -> ArgumentValue? {
        let probe = CommandSpec(name: "probe", abstract: "Probe.", options: [.option("value", self, help: "")],
                                run: { _ in })
        guard case .invocation(let invocation) = CommandParser.parse(["--value=" + text], root: probe) else { return nil }
        return invocation.values.all("value").first
    }
}
