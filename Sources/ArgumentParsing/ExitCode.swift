/// A process exit status.
public struct ExitCode: Sendable, Hashable, RawRepresentable, ExpressibleByIntegerLiteral {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public init(integerLiteral value: Int32) { self.rawValue = value }

    /// 0: the command did its work (help and `--version` included).
    public static let success: ExitCode = 0
    /// 1: the command failed.
    public static let failure: ExitCode = 1
    /// 64 (`EX_USAGE` of sysexits.h): the command line was wrong.
    public static let usage: ExitCode = 64
}
