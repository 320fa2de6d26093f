public import CivilTime

/// What the server accepts in time, applied after decoding. Pure: the receive time is a parameter
/// (an instant, `UTCTimestamp`); the event times and `sent_at` stay the wire's Int64 microseconds,
/// read per event on the ingest path.
///
/// 1. Clock skew: when the batch has `sent_at` and it differs from the receive time by more than
///    `skewThreshold`, every event time is shifted by `receivedAt - sentAt` (the client's clock
///    was off by that much when it stamped the events).
/// 2. Each (corrected) event later than `receivedAt + maxFuture` is refused (`time_in_future`),
///    each one older than `receivedAt - retention` is refused (`time_too_old`).
/// 3. The event's own day, the UTC day of its time as the client sent it (before the correction),
///    is its partition day and part of its dedupe key (`IncomingEvent.partitionDayNumber`): a
///    retry sends the same time, while the correction is measured again on each attempt. An event
///    whose own day lies outside the `RetentionWindow` of the receive day is refused up front
///    (`time_too_old` before it, `time_in_future` after it) rather than stored under another day,
///    so an accepted event is kept for the whole retention and a retry always finds it.
public struct EventPolicy: Sendable, Hashable {
    /// Microseconds of disagreement between `sent_at` and the receive time that are tolerated.
    public var skewThreshold: Int64
    /// Microseconds after the receive time an event may lie.
    public var maxFuture: Int64
    /// Microseconds before the receive time an event may lie; nil accepts any age (bulk import of history).
    public var retention: Int64?
    /// Whole days after the receive day that an event's own day may lie (a clock ahead of the server's).
    public var futureDays: Int

    public static let secondMicroseconds: Int64 = 1_000_000
    public static let dayMicroseconds: Int64 = 86_400 * 1_000_000

    public init(
        skewThreshold: Int64 = 60 * EventPolicy.secondMicroseconds,
        maxFuture: Int64 = 300 * EventPolicy.secondMicroseconds,
        retention: Int64? = 90 * EventPolicy.dayMicroseconds,
        futureDays: Int = 1
    ) {
        self.skewThreshold = skewThreshold
        self.maxFuture = maxFuture
        self.retention = retention
        self.futureDays = max(0, futureDays)
    }

    /// The days kept, as partition maintenance applies them; nil when any age is accepted.
    public var window: RetentionWindow? {
        retention.map { RetentionWindow(retentionDays: Int($0 / EventPolicy.dayMicroseconds), futureDays: futureDays) }
    }

    /// The shift to add to every event time: 0 unless `sentAt` is off by more than the threshold.
    public func clockShift(sentAt: Int64?, receivedAt: UTCTimestamp) -> Int64 {
        guard let sentAt else { return 0 }
        let (difference, overflow) = receivedAt.microsecondsSince1970.subtractingReportingOverflow(sentAt)
        guard !overflow, difference.magnitude > UInt64(max(0, skewThreshold)) else { return 0 }
        return difference
    }

    /// Applies clock-skew correction and the time window to a decoded batch: the returned batch
    /// holds the events that passed (times corrected), and its rejections are the decoder's and the
    /// policy's together, in request order.
    public func apply(to batch: EventBatch, receivedAt: UTCTimestamp) -> EventBatch {
        let shift = clockShift(sentAt: batch.sentAt, receivedAt: receivedAt)
        var out = batch
        out.clockShift = shift
        out.events = []
        out.events.reserveCapacity(batch.events.count)
        var refused: [EventRejection] = []
        for var event in batch.events {
            if let rejection = check(&event, shift: shift, receivedAt: receivedAt) {
                refused.append(rejection)
            } else {
                out.events.append(event)
            }
        }
        if !refused.isEmpty {
            out.rejections = EventPolicy.merge(batch.rejections, refused)
        }
        return out
    }

    /// Applies the time window (no shift) to events without a batch, such as JSON Lines imports.
    public func apply(to events: [IncomingEvent], receivedAt: UTCTimestamp)
        -> (accepted: [IncomingEvent], rejected: [EventRejection])
    {
        var accepted: [IncomingEvent] = []
        accepted.reserveCapacity(events.count)
        var rejected: [EventRejection] = []
        for var event in events {
            if let rejection = check(&event, shift: 0, receivedAt: receivedAt) {
                rejected.append(rejection)
            } else {
                accepted.append(event)
            }
        }
        return (accepted, rejected)
    }

    /// Shifts one event and checks it against the window; a rejection when it falls outside.
    public func check(_ event: inout IncomingEvent, shift: Int64, receivedAt instant: UTCTimestamp) -> EventRejection? {
        let receivedAt = instant.microsecondsSince1970
        let shifted = saturatingAdd(event.time, shift)
        if shifted > saturatingAdd(receivedAt, maxFuture) {
            return EventRejection(
                index: event.index, id: event.id.description, code: .timeInFuture,
                message: "time \(describe(shifted, shift: shift)) is more than \(EventPolicy.duration(maxFuture)) after the server time \(RFC3339.format(receivedAt))")
        }
        if let retention, shifted < saturatingAdd(receivedAt, -retention) {
            return EventRejection(
                index: event.index, id: event.id.description, code: .timeTooOld,
                message: "time \(describe(shifted, shift: shift)) is older than the retention of \(EventPolicy.duration(retention))")
        }
        // The event's own day (its partition day, which a retry keeps) must be a day the server keeps.
        let ownDay = RFC3339.dayNumber(of: event.time)
        let today = RFC3339.dayNumber(of: receivedAt)
        if ownDay > today &+ futureDays {
            return EventRejection(
                index: event.index, id: event.id.description, code: .timeInFuture,
                message: "time \(RFC3339.format(event.time)) as sent lies on a UTC day more than \(EventPolicy.plural(Int64(futureDays), "day")) after the server's \(RFC3339.format(receivedAt)); the device's clock is ahead")
        }
        if let window, ownDay < window.firstDay(today: today) {
            return EventRejection(
                index: event.index, id: event.id.description, code: .timeTooOld,
                message: "time \(RFC3339.format(event.time)) as sent lies on a UTC day before the retention of \(EventPolicy.plural(Int64(window.retentionDays), "day")) (the device's clock is behind); events are stored under the day the device gives them")
        }
        event.time = shifted
        event.clockShift = shift
        return nil
    }

    private func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }

    private func describe(_ time: Int64, shift: Int64) -> String {
        shift == 0 ? RFC3339.format(time) : "\(RFC3339.format(time)) (after clock-skew correction)"
    }

    /// "90 days", "5 minutes", "45 seconds".
    static func duration(_ microseconds: Int64) -> String {
        let seconds = microseconds / secondMicroseconds
        if seconds % 86_400 == 0, seconds >= 86_400 { return plural(seconds / 86_400, "day") }
        if seconds % 3600 == 0, seconds >= 3600 { return plural(seconds / 3600, "hour") }
        if seconds % 60 == 0, seconds >= 60 { return plural(seconds / 60, "minute") }
        return plural(seconds, "second")
    }

    static func plural(_ n: Int64, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }

    /// Two index-ordered lists of rejections as one index-ordered list.
    static func merge(_ a: [EventRejection], _ b: [EventRejection]) -> [EventRejection] {
        var out: [EventRejection] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].index <= b[j].index) {
                out.append(a[i]); i += 1
            } else {
                out.append(b[j]); j += 1
            }
        }
        return out
    }
}
