/// The events of a chunk of JSON Lines, and the lines refused.
public struct JSONLinesBatch: Sendable, Hashable {
    /// Well-formed events in file order; each one's `index` is its 1-based line number.
    public var events: [IncomingEvent]
    public var rejections: [LineRejection]
    /// Lines read (blank lines included); the next chunk starts at `firstLineNumber + lineCount`.
    public var lineCount: Int

    public init(events: [IncomingEvent] = [], rejections: [LineRejection] = [], lineCount: Int = 0) {
        self.events = events
        self.rejections = rejections
        self.lineCount = lineCount
    }
}
