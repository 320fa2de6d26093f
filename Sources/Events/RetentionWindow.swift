/// The UTC days of events the server keeps: one definition for ingestion, which refuses an event
/// whose day lies outside it, and for partition maintenance, which drops the days before it.
///
/// On a day `today` the window is `[today - retentionDays, today + futureDays]`. An event accepted
/// on `today` has a day inside it, and maintenance drops a day only once it is before the window of
/// a later day: so an accepted event is kept until its own day is more than `retentionDays` days
/// old, never dropped by the next maintenance run.
public struct RetentionWindow: Sendable, Hashable {
    /// Whole days before today that are kept.
    public var retentionDays: Int
    /// Whole days after today whose events are accepted (clocks ahead of the server's).
    public var futureDays: Int

    public init(retentionDays: Int, futureDays: Int = 1) {
        self.retentionDays = max(0, retentionDays)
        self.futureDays = max(0, futureDays)
    }

    /// The first day kept on `today` (day numbers: days since 1970-01-01).
    public func firstDay(today: Int) -> Int { today &- retentionDays }

    /// The last day accepted on `today`.
    public func lastDay(today: Int) -> Int { today &+ futureDays }

    public func contains(day: Int, today: Int) -> Bool {
        day >= firstDay(today: today) && day <= lastDay(today: today)
    }
}
