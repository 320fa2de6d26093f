/// Bounds applied while decoding events. Defaults follow the API contract.
public struct EventLimits: Sendable, Hashable {
    /// Most events in one request; more is a `too_many_events` (413) error.
    public var maxEvents: Int
    /// Deepest nesting of arrays and objects in a document (the batch object is level 1, `events`
    /// level 2, an event level 3); deeper is an `invalid_json` error.
    public var maxDepth: Int
    /// `element_type` and `command`: 1 to this many printable ASCII characters.
    public var maxNameLength: Int
    /// `menu_version`, `app_version`, `platform`, `locale`, `trigger`: at most this many characters.
    public var maxShortTextLength: Int
    /// `user` and `session`: at most this many characters.
    public var maxIdentifierLength: Int
    public var maxPosition: Int
    public var maxLatencyMs: Int

    public init(
        maxEvents: Int = 1000, maxDepth: Int = 16, maxNameLength: Int = 128, maxShortTextLength: Int = 64,
        maxIdentifierLength: Int = 256, maxPosition: Int = 10_000, maxLatencyMs: Int = 3_600_000
    ) {
        self.maxEvents = maxEvents
        self.maxDepth = maxDepth
        self.maxNameLength = maxNameLength
        self.maxShortTextLength = maxShortTextLength
        self.maxIdentifierLength = maxIdentifierLength
        self.maxPosition = maxPosition
        self.maxLatencyMs = maxLatencyMs
    }
}
