/// The primary key of a stored event: (app, event id, day). Two events with the same key are the
/// same event; the second is a duplicate.
public struct EventKey: Sendable, Hashable {
    public var appID: Int32
    public var day: Int32
    public var high: UInt64
    public var low: UInt64

    public init(appID: Int32, day: Int32, high: UInt64, low: UInt64) {
        self.appID = appID
        self.day = day
        self.high = high
        self.low = low
    }
}
