import Locking

/// A console that records what is written, for tests: `capture.console` goes to the code under test,
/// `capture.output` and `capture.errorOutput` hold the text.
public final class ConsoleCapture: Sendable {
    private let streams = Locked<(output: String, error: String)>(("", ""))

    public init() {}

    public var console: Console {
        Console(
            writeOutput: { text in self.streams.withLock { $0.output += text } },
            writeError: { text in self.streams.withLock { $0.error += text } })
    }

    /// Everything written to standard output so far.
    public var output: String { streams.withLock { $0.output } }
    /// Everything written to standard error so far.
    public var errorOutput: String { streams.withLock { $0.error } }
}
