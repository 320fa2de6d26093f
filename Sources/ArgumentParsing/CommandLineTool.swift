/// The entry point of a command-line program: parses, prints help or errors, runs the command and
/// turns what happened into an exit code.
public enum CommandLineTool {
    /// Runs the tree under `root` with the process's streams and returns the exit status for `exit`.
    /// `arguments` leave out the program name: `Array(CommandLine.arguments.dropFirst())`.
    public static func main(root: CommandSpec, arguments: [String], environment: [String: String]) async -> Int32 {
        await run(root: root, arguments: arguments, environment: environment, console: .standard).rawValue
    }

    /// Runs the tree under `root` on `arguments` (without the program name), writing to `console`.
    ///
    /// Help and `--version` go to standard output, exit 0. Usage errors (from parsing, a `validate`
    /// hook, or `CLIError.usage` thrown by `run`) go to standard error as `Error: ...`, the usage line
    /// and a hint to `--help`, exit 64. A `CLIError` exits with its code; any other error prints
    /// `Error: ...` (its `description`) and exits 1. When the tree declares a `verbose` flag and it
    /// is set, a failure also prints its detail (a `CLIError`'s `detail`, another error's
    /// `debugDescription`) on the lines after, indented.
    public static func run(root: CommandSpec, arguments: [String], environment: [String: String],
                           console: Console) async -> ExitCode {
        switch CommandParser.parse(arguments, root: root, environment: environment) {
        case .help(let request):
            console.write(HelpFormatter.help(for: request.commands))
            return .success
        case .version(let version):
            console.print(version)
            return .success
        case .usageError(let failure):
            reportUsageError(failure.message, commands: failure.commands, console: console)
            return .usage
        case .invocation(let invocation):
            do {
                for command in invocation.commands {
                    try command.validate?(invocation.values)
                }
                guard let body = invocation.command.run else {
                    console.write(HelpFormatter.help(for: invocation.commands))
                    return .success
                }
                let context = CommandContext(values: invocation.values, commandPath: invocation.commandPath,
                                             environment: environment, console: console)
                try await body(context)
                return .success
            } catch let error as CLIError {
                if error.kind == .usage {
                    reportUsageError(error.message, commands: invocation.commands, console: console)
                } else if !error.message.isEmpty {
                    console.printError("Error: " + error.message)
                }
                if let detail = error.detail, isVerbose(invocation.values) { reportDetail(detail, console: console) }
                return error.exitCode
            } catch {
                let summary = String(describing: error)
                console.printError("Error: " + summary)
                let full = String(reflecting: error)
                if full != summary, isVerbose(invocation.values) { reportDetail(full, console: console) }
                return .failure
            }
        }
    }

    private static func isVerbose(_ values: ParsedValues) -> Bool {
        values.declares("verbose") && values.flag("verbose")
    }

    private static func reportDetail(_ detail: String, console: Console) {
        for line in detail.split(separator: "\n", omittingEmptySubsequences: false) {
            console.printError("  " + line)
        }
    }

    private static func reportUsageError(_ message: String, commands: [CommandSpec], console: Console) {
        let path = commands.map(\.name).joined(separator: " ")
        console.printError("Error: " + message)
        console.printError("Usage: " + HelpFormatter.usage(for: commands))
        console.printError("  See '\(path) --help' for more information.")
    }
}
