/// Where and why a document is not valid JSON.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// 0-based byte offset of the problem.
    public let offset: Int
    /// 1-based line and column (column counted in bytes).
    public let line: Int
    public let column: Int

    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "\(message) at line \(line), column \(column) (byte \(offset))" }
}
