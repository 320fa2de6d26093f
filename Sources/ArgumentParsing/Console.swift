import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// `Console.standard` writes to the process's streams; `ConsoleCapture` records the text in tests.
public struct Console: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal (colour, progress); false when captured.
    public let isOutputTerminal: Bool

    public init(isOutputTerminal: Bool = false, writeOutput: @escaping @Sendable (String) -> Void,
                writeError: @escaping @Sendable (String) -> Void) {
        self.isOutputTerminal = isOutputTerminal
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    /// The process's standard output (through the same buffer as `print`) and standard error.
    public static var standard: Console {
        Console(
            isOutputTerminal: isatty(STDOUT_FILENO) == 1,
            writeOutput: { text in Swift.print(text, terminator: "") },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) })
    }

    /// Writes `text` to standard output as is.
    public func write(_ text: String) { writeOutput(text) }

    /// Writes `line` and a newline to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes `line` and a newline to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}
