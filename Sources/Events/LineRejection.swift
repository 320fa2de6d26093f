/// One refused line of a JSON Lines import.
public struct LineRejection: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// The event's id when it could be read.
    public var id: String?
    public var code: RejectionCode
    public var message: String

    public init(line: Int, id: String?, code: RejectionCode, message: String) {
        self.line = line
        self.id = id
        self.code = code
        self.message = message
    }

    public var description: String { "line \(line): \(code.rawValue): \(message)" }
}
