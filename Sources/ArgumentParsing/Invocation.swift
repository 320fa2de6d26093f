/// A command line resolved to the command to run and its typed values.
public struct Invocation: Sendable {
    /// The commands from the root to the one to run.
    public let commands: [CommandSpec]
    public let values: ParsedValues

    /// The command to run.
    public var command: CommandSpec { commands[commands.count - 1] }
    /// The names from the root to the command to run (`["menurank", "proposals", "show"]`).
    public var commandPath: [String] { commands.map(\.name) }
}
