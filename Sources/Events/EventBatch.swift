/// A decoded `POST /v1/events` body: the well-formed events (context merged) and the refused ones.
public struct EventBatch: Sendable, Hashable {
    /// `sent_at` in microseconds since the epoch, when the client sent it.
    public var sentAt: Int64?
    public var context: EventContext
    /// Well-formed events in request order.
    public var events: [IncomingEvent]
    /// Refused events in request order.
    public var rejections: [EventRejection]
    /// Number of elements in the request's `events` array.
    public var totalCount: Int
    /// Microseconds added to every event time by clock-skew correction (0 until `EventPolicy` ran).
    public var clockShift: Int64

    public init(
        sentAt: Int64? = nil, context: EventContext = EventContext(), events: [IncomingEvent] = [],
        rejections: [EventRejection] = [], totalCount: Int = 0, clockShift: Int64 = 0
    ) {
        self.sentAt = sentAt
        self.context = context
        self.events = events
        self.rejections = rejections
        self.totalCount = totalCount
        self.clockShift = clockShift
    }
}
