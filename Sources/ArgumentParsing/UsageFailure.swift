/// A command line that cannot be parsed: what is wrong and the command whose usage line to show.
public struct UsageFailure: Sendable, Equatable {
    public let message: String
    /// The names from the root to the command parsing had reached.
    public let commandPath: [String]
    let commands: [CommandSpec]

    init(_ message: String, commands: [CommandSpec]) {
        self.message = message
        self.commands = commands
        self.commandPath = commands.map(\.name)
    }

    public static func == (lhs: UsageFailure, rhs: UsageFailure) -> Bool {
        lhs.message == rhs.message && lhs.commandPath == rhs.commandPath
    }
}
