/// Selections in a window against the previous window of equal length (raw, undecayed counts).
public struct Trend: Hashable, Sendable {
    public var previous: Int
    public var current: Int

    public init(previous: Int, current: Int) {
        self.previous = previous
        self.current = current
    }

    /// current / previous; a trend only exists when the previous window has selections.
    public var ratio: Double { Double(current) / Double(previous) }

    /// (current - previous) / previous x 100.
    public var percentChange: Double { (ratio - 1) * 100 }

    /// The trend, or nil when the previous window has no selections (no basis to compare).
    public static func between(previous: Int, current: Int) -> Trend? {
        previous > 0 ? Trend(previous: previous, current: current) : nil
    }
}
