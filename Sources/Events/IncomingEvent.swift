public import CivilTime

/// One decoded, well-formed event (context already merged in).
public struct IncomingEvent: Sendable, Hashable {
    /// Position in the request's `events` array (0-based); for JSON Lines, the 1-based line number.
    public var index: Int
    public var id: EventID
    /// Microseconds since the Unix epoch, UTC. After `EventPolicy` it is corrected for clock skew.
    public var time: Int64
    public var elementType: String
    /// The picked command; nil for a dismissal.
    public var command: String?
    public var kind: EventKind
    public var position: Int?
    public var latencyMs: Int?
    public var menuVersion: String?
    /// The client's user id in clear, to be pseudonymised (`Pseudonymizer`) before it is stored.
    public var user: String?
    public var session: String?
    public var trigger: String?
    public var appVersion: String?
    public var platform: String?
    public var locale: String?
    public var isTest: Bool
    /// The clock-skew correction `EventPolicy` added to `time` (microseconds); 0 when the client's
    /// clock was trusted.
    public var clockShift: Int64 = 0

    public init(
        index: Int = 0, id: EventID, time: Int64, elementType: String, command: String?, kind: EventKind = .select,
        position: Int? = nil, latencyMs: Int? = nil, menuVersion: String? = nil, user: String? = nil,
        session: String? = nil, trigger: String? = nil, appVersion: String? = nil, platform: String? = nil,
        locale: String? = nil, isTest: Bool = false
    ) {
        self.index = index
        self.id = id
        self.time = time
        self.elementType = elementType
        self.command = command
        self.kind = kind
        self.position = position
        self.latencyMs = latencyMs
        self.menuVersion = menuVersion
        self.user = user
        self.session = session
        self.trigger = trigger
        self.appVersion = appVersion
        self.platform = platform
        self.locale = locale
        self.isTest = isTest
    }

    /// The UTC day of `time` (corrected for clock skew) as a day number (days since 1970-01-01).
    public var dayNumber: Int { RFC3339.dayNumber(of: time) }

    /// The partition day, part of the dedupe key (app, id, day): the UTC day of the client's own
    /// event time, as sent. A retried event sends that time again, while the skew correction is
    /// measured again on every attempt (and may differ, or vanish once the device's clock is fixed or
    /// `sent_at` is left out), so only the client's own day keeps the key stable. `EventPolicy`
    /// refuses an event whose own day lies outside the retention window instead of moving it.
    public var partitionDayNumber: Int { RFC3339.dayNumber(of: time &- clockShift) }

    /// The partition day as a date (`partitionDayNumber`), for callers outside the write path.
    public var partitionDay: CivilDate { CivilDate(dayNumber: partitionDayNumber) }

    /// The UTC calendar date of `time`.
    public var day: CivilDate { CivilDate(dayNumber: dayNumber) }
}
