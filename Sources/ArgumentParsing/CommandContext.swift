/// What a command's `run` receives: its parsed values, the environment and where to write.
public struct CommandContext: Sendable {
    /// Every option and argument of the command and of its parents, typed.
    public let values: ParsedValues
    /// The names from the root to the running command (`["menurank", "proposals", "show"]`).
    public let commandPath: [String]
    /// The environment the tool was started with.
    public let environment: [String: String]
    /// Standard output and standard error (captured in tests).
    public let console: Console

    public init(values: ParsedValues, commandPath: [String], environment: [String: String], console: Console) {
        self.values = values
        self.commandPath = commandPath
        self.environment = environment
        self.console = console
    }
}
