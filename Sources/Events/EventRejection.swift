/// One refused event of a batch: reported back to the client, never dropped silently.
public struct EventRejection: Sendable, Hashable {
    /// Position in the request's `events` array (0-based); for JSON Lines, the 1-based line number.
    public var index: Int
    /// The event's id as the client sent it (canonical form when it parsed), when it was a string of
    /// at most 64 bytes.
    public var id: String?
    public var code: RejectionCode
    /// Names the field and the rule it broke.
    public var message: String

    public init(index: Int, id: String?, code: RejectionCode, message: String) {
        self.index = index
        self.id = id
        self.code = code
        self.message = message
    }
}
