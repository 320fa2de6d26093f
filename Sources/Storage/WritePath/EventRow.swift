/// One event as stored in the `events` table: ids instead of names, user and session already hashed
/// with the app's secret, nothing the client sent in free text.
public struct EventRow: Sendable, Hashable {
    public var appID: Int32
    /// UTC day of `time` as days since 1970-01-01: the partition key.
    public var day: Int32
    /// Microseconds since the Unix epoch, UTC (skew-corrected).
    public var time: Int64
    public var userHash: Int64?
    /// The client's event id, 16 bytes as two big-endian halves.
    public var eventIDHigh: UInt64
    public var eventIDLow: UInt64
    public var elementTypeID: Int32
    /// Nil for a dismissal.
    public var commandID: Int32?
    public var contextID: Int32?
    public var latencyMs: Int32?
    public var sessionHash: Int32?
    public var position: Int16?
    /// The person's bucket (`PersonBucket`, 0..<64), computed from the raw user id before it was
    /// hashed (or from the event id); nil stores NULL, as rows written before sql/0020 have.
    public var personBucket: Int16?

    public init(appID: Int32, day: Int32, time: Int64, userHash: Int64?, eventIDHigh: UInt64, eventIDLow: UInt64,
                elementTypeID: Int32, commandID: Int32?, contextID: Int32?, latencyMs: Int32?, sessionHash: Int32?,
                position: Int16?, personBucket: Int16? = nil)
    {
        self.appID = appID
        self.day = day
        self.time = time
        self.userHash = userHash
        self.eventIDHigh = eventIDHigh
        self.eventIDLow = eventIDLow
        self.elementTypeID = elementTypeID
        self.commandID = commandID
        self.contextID = contextID
        self.latencyMs = latencyMs
        self.sessionHash = sessionHash
        self.position = position
        self.personBucket = personBucket
    }

    /// The dedupe key of the table's primary key (app, event id, day).
    public var key: EventKey {
        EventKey(appID: appID, day: day, high: eventIDHigh, low: eventIDLow)
    }
}
