import CivilTime
import Foundation

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T10:00:00.123Z`), computed without a
/// formatter so logging stays cheap and thread-safe.
enum UTCTimestamp {
    static func format(_ date: Date) -> String {
        // Whole microseconds first, so a time like .123 stored as .12299999 still reads .123.
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        return CivilDateTime(microsecondsSince1970: microseconds).rfc3339(fractionDigits: 3)
    }
}
