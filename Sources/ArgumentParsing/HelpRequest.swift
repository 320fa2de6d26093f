/// A request to show the help of a command (`--help`, `-h`, `menurank help <command>`, or a group
/// given without a subcommand).
public struct HelpRequest: Sendable {
    /// The commands from the root to the one whose help is asked for.
    public let commands: [CommandSpec]

    public var commandPath: [String] { commands.map(\.name) }
}
