/// The error a command throws to end the process with a given exit code and message.
///
/// `CommandLineTool` prints `Error: <message>` on standard error (for a usage error, followed by the
/// usage line and a hint to `--help`) and exits with `exitCode`. A message left empty prints nothing.
/// `detail` (the underlying error in full: a server's detail, hint, SQL) is printed only when the
/// command line asks for it with `--verbose`.
public struct CLIError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set: new kinds do not break callers.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Sendable, Hashable { case usage, failure, exit }
        private let base: Base

        /// The command line was wrong (exit 64).
        public static let usage = Kind(base: .usage)
        /// The command could not do its work (exit 1).
        public static let failure = Kind(base: .failure)
        /// The command chose its own exit code (`lint` exits 2 when it finds problems).
        public static let exit = Kind(base: .exit)

        public var description: String {
            switch base {
            case .usage: "usage"
            case .failure: "failure"
            case .exit: "exit"
            }
        }
    }

    public let kind: Kind
    public let message: String
    public let exitCode: ExitCode
    /// What `--verbose` adds below the message.
    public let detail: String?

    public init(kind: Kind, message: String, exitCode: ExitCode, detail: String? = nil) {
        self.kind = kind
        self.message = message
        self.exitCode = exitCode
        self.detail = detail
    }

    /// A usage error: exit 64, with the usage line and a hint to `--help`.
    public static func usage(_ message: String) -> CLIError {
        CLIError(kind: .usage, message: message, exitCode: .usage)
    }

    /// A failure: exit 1.
    public static func failure(_ message: String, detail: String? = nil) -> CLIError {
        CLIError(kind: .failure, message: message, exitCode: .failure, detail: detail)
    }

    /// A failure caused by `error`: exit 1 with `message` (the error's own description when
    /// nil), and the error in full (`debugDescription`) as the detail `--verbose` prints.
    public static func failure(_ message: String? = nil, causedBy error: any Error) -> CLIError {
        let summary = String(describing: error)
        let full = String(reflecting: error)
        return CLIError(kind: .failure, message: message ?? summary, exitCode: .failure,
                        detail: full == summary && message == nil ? nil : full)
    }

    /// Ends the process with `code`, printing `message` when it is not empty.
    public static func exit(_ code: ExitCode, message: String = "") -> CLIError {
        CLIError(kind: .exit, message: message, exitCode: code)
    }

    public var description: String { message.isEmpty ? "exit \(exitCode.rawValue)" : message }
}
