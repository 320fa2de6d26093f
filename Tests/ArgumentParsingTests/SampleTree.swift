import ArgumentParsing

/// A small command tree that exercises every kind of declaration, shared by the parser, help and
/// tool tests. Each command prints its path and values, so a test sees what ran with what.
enum SampleTree {
    static func echo(_ context: CommandContext) {
        context.console.print(context.commandPath.joined(separator: " ") + ": " + context.values.description)
    }

    static let rank = CommandSpec(
        name: "rank",
        abstract: "Rank commands by use.",
        discussion: "Counts picks over a window and orders the commands of every element type by share.",
        options: [
            .option("app", short: "a", required: true, help: "The app to rank."),
            .option("window", .duration, default: "28d", range: .durations(.seconds(1)...(.seconds(365 * 86_400))), help: "How far back to count."),
            .option("max-groups", .int, valueName: "n", default: "7", range: .ints(1...10), help: "Most groups in a menu."),
            .option("threshold", .double, valueName: "minimum-share", range: .numbers(0...1), help: "Least share kept."),
            .option("since", .date, valueName: "day", help: "First day counted."),
            .option("format", .choice(["text", "markdown", "json"]), default: "text", help: "Output format."),
            .option("tag", repeating: true, help: "Only events with this tag."),
            .flag("dry-run", short: "n", help: "Print, do not store."),
        ],
        arguments: [.optionalArgument("element-type", help: "Only this element type.")],
        run: { echo($0) })

    static let importCommand = CommandSpec(
        name: "import",
        abstract: "Import event files.",
        options: [.option("batch-size", .int, default: "500", environment: ["TOOL_BATCH_SIZE"], range: .ints(1...10_000), help: "Events per batch.")],
        arguments: [.variadic("files", atLeastOne: true, help: "Files of events.")],
        run: { echo($0) })

    static let show = CommandSpec(
        name: "show", abstract: "Show one proposal.",
        arguments: [.argument("id", .int, range: .ints(1...Int.max), help: "The proposal id.")],
        run: { echo($0) })

    static let list = CommandSpec(
        name: "list", abstract: "List proposals.",
        options: [.option("status", .choice(["open", "accepted", "rejected"]), help: "Only proposals in this state.")],
        run: { echo($0) })

    static let proposals = CommandSpec(
        name: "proposals", abstract: "Review proposed menus.", subcommands: [list, show])

    static let report = CommandSpec(
        name: "report",
        abstract: "Report use between two days.",
        options: [
            .option("from", .date, required: true, help: "First day."),
            .option("to", .date, required: true, help: "Last day."),
            .option("fail-with", .int, range: .ints(0...255), help: "Exit with this code."),
        ],
        validate: { values in
            if let from = values.date("from"), let to = values.date("to"), from > to {
                throw CLIError.usage("--from must not be after --to.")
            }
        },
        run: { context in
            if let code = context.values.int("fail-with") {
                throw CLIError.exit(ExitCode(Int32(code)), message: code == 3 ? "" : "failed with \(code)")
            }
            if context.values.date("from") == context.values.date("to") {
                throw SampleFailure()
            }
            echo(context)
        })

    static let root = CommandSpec(
        name: "tool",
        abstract: "A sample tool.",
        discussion: "Exercises the parser.",
        version: "1.2.3",
        options: [
            .option("database", valueName: "url", environment: ["DATABASE_URL"], inherited: true,
                    help: "Connection URL."),
            .flag("verbose", short: "v", inherited: true, help: "Say more."),
        ],
        subcommands: [rank, importCommand, proposals, report])
}

/// An error that is not a `CLIError`, to check it exits 1.
struct SampleFailure: Error, CustomStringConvertible {
    var description: String { "the sample failed" }
}
