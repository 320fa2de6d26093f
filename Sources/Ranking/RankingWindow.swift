public import CivilTime
import Foundation

/// The days a ranking covers: `length` days ending with `asOf` (inclusive), and optionally a
/// half-life that weights recent days more.
public struct RankingWindow: Hashable, Sendable {
    /// The last day of the window.
    public var asOf: CivilDate
    /// Number of days, at least 1 (default `defaultLength`).
    public var length: Int
    /// Half-life of the exponential decay in days; nil weights every day of the window equally.
    public var halfLife: Double?

    /// The window's length in days when none is asked for.
    public static let defaultLength = 28

    public init(asOf: CivilDate, length: Int = defaultLength, halfLife: Double? = nil) {
        self.asOf = asOf
        self.length = max(1, length)
        if let halfLife, halfLife > 0, halfLife.isFinite {
            self.halfLife = halfLife
        } else {
            self.halfLife = nil
        }
    }

    /// The first day of the window.
    public var firstDay: CivilDate { asOf.adding(days: 1 - length) }

    /// The days of the window.
    public var days: ClosedRange<CivilDate> { firstDay...asOf }

    /// The window of equal length just before this one (same half-life), used for trends.
    public var previous: RankingWindow { RankingWindow(asOf: asOf.adding(days: -length), length: length, halfLife: halfLife) }

    /// The weight of a day of the window: 0.5^(age / halfLife) with age = asOf - day in days, so
    /// the last day weighs 1; 1 for every day without decay; 0 outside the window.
    public func weight(day: CivilDate) -> Double {
        guard days.contains(day) else { return 0 }
        guard let halfLife else { return 1 }
        return pow(0.5, Double(day.distance(to: asOf)) / halfLife)
    }
}
