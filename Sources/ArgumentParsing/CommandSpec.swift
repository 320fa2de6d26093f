/// The declaration of one command: its name, help texts, options, arguments and subcommands, and
/// the code that checks and runs it.
///
/// A command with subcommands is a group: given without one, it shows its help. Declarations are
/// plain values, so a whole command tree can be built in tests and parsed without a process.
public struct CommandSpec: Sendable {
    /// What the user types (`serve`); for the root, the program name.
    public var name: String
    /// One line, shown in the parent's subcommand list and at the top of the command's help.
    public var abstract: String
    /// Paragraphs shown in the command's help after the abstract, as written.
    public var discussion: String
    /// The root's version: enables `--version`.
    public var version: String?
    public var options: [OptionSpec]
    public var arguments: [ArgumentSpec]
    public var subcommands: [CommandSpec]
    /// Runs after parsing and before `run`, for checks across values (`--from` before `--to`); it
    /// throws `CLIError.usage(...)` to report a usage error (exit 64). The validate hooks of every
    /// command on the path run, root first.
    public var validate: (@Sendable (ParsedValues) throws -> Void)?
    /// The command's work. Throw `CLIError` to choose the exit code; any other error exits 1.
    public var run: (@Sendable (CommandContext) async throws -> Void)?

    public init(
        name: String, abstract: String, discussion: String = "", version: String? = nil,
        options: [OptionSpec] = [], arguments: [ArgumentSpec] = [], subcommands: [CommandSpec] = [],
        validate: (@Sendable (ParsedValues) throws -> Void)? = nil,
        run: (@Sendable (CommandContext) async throws -> Void)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
        self.validate = validate
        self.run = run
    }

    /// The subcommand called `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
