public import CivilTime
public import Foundation

/// Where log lines go: their format, the clock that stamps them, and the function that writes each
/// finished line (newline included) in one piece.
public struct LogOutput: Sendable {
    public let format: LogFormat
    let clock: WallClock
    let write: @Sendable (String) -> Void

    /// Lines written by `write`, stamped by `clock` (fixed in tests).
    public init(format: LogFormat, clock: WallClock = .system,
                write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.clock = clock
        self.write = write
    }

    /// Standard error, one write(2) per line, so lines from many threads never interleave.
    public static func standardError(format: LogFormat) -> LogOutput {
        fileDescriptor(STDERR_FILENO, format: format)
    }

    /// An open file descriptor (a pipe, a file opened with `O_APPEND`), one write(2) per line.
    public static func fileDescriptor(_ descriptor: Int32, format: LogFormat,
                                      clock: WallClock = .system) -> LogOutput {
        LogOutput(format: format, clock: clock) { line in FileDescriptorWriter.writeAll(line, to: descriptor) }
    }
}
