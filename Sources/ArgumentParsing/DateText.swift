import CivilTime
import Foundation

/// Reads and writes calendar days `YYYY-MM-DD` as midnight UTC, with no `Calendar` or formatter.
enum DateText {
    /// Midnight UTC of the day `text` spells, or nil when it is not a real day written `YYYY-MM-DD`.
    static func parse(_ text: String) -> Date? {
        guard let day = CivilDate(parsing: text) else { return nil }
        return Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400)
    }

    /// The UTC day of `date` as `YYYY-MM-DD`.
    static func format(_ date: Date) -> String {
        CivilDate(dayNumber: Int((date.timeIntervalSince1970 / 86_400).rounded(.down))).description
    }
}
