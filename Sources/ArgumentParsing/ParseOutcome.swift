/// What a command line asks for, as decided by `CommandParser.parse`.
public enum ParseOutcome: Sendable {
    /// Run a command with these values.
    case invocation(Invocation)
    /// Show a command's help on standard output and exit 0.
    case help(HelpRequest)
    /// Show the root's version on standard output and exit 0.
    case version(String)
    /// Report a usage error on standard error and exit 64.
    case usageError(UsageFailure)
}
