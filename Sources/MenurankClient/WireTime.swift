/// UTC times as the API writes them, `2026-11-29T09:59:58.120Z`, from milliseconds since 1970:
/// computed with integer arithmetic (days to civil date), no formatter, no locale.
enum WireTime {
    /// The text's length, always.
    static let width = 24

    static func append(_ millis: Int64, to out: inout [UInt8]) {
        ByteWriter.append(to: &out, capacity: width) { write(millis, to: &$0) }
    }

    static func write(_ millis: Int64, to out: inout ByteWriter) {
        var days = Days()
        write(millis, to: &out, days: &days)
    }

    /// The date part (`2026-11-29T`, 11 bytes) of the last day written: the events a client
    /// records fall on one day almost always, and the civil date costs divisions.
    struct Days {
        fileprivate var day = Int64.min
        fileprivate var text: (UInt64, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    }

    /// The same, with the date part of `days`'s day copied instead of computed.
    static func write(_ millis: Int64, to out: inout ByteWriter, days cache: inout Days) {
        let msPerDay: Int64 = 86_400_000
        var days = millis / msPerDay
        var rest = millis % msPerDay
        if rest < 0 {
            rest += msPerDay
            days -= 1
        }
        let start = out.base + out.count
        if days == cache.day {
            UnsafeMutableRawPointer(start).storeBytes(of: cache.text.0, as: UInt64.self)
            start[8] = cache.text.1
            start[9] = cache.text.2
            start[10] = cache.text.3
            out.advance(by: 11)
        } else {
            date(days, &out)
            cache.day = days
            cache.text = (UnsafeRawPointer(start).loadUnaligned(as: UInt64.self), start[8], start[9], start[10])
        }
        digits(rest / 3_600_000, 2, &out)
        out.byte(UInt8(ascii: ":"))
        digits(rest / 60_000 % 60, 2, &out)
        out.byte(UInt8(ascii: ":"))
        digits(rest / 1000 % 60, 2, &out)
        out.byte(UInt8(ascii: "."))
        digits(rest % 1000, 3, &out)
        out.byte(UInt8(ascii: "Z"))
    }

    /// `YYYY-MM-DDT` of a day number (days since 1970-01-01).
    private static func date(_ days: Int64, _ out: inout ByteWriter) {
        // Civil date from a day number (days since 1970-01-01), proleptic Gregorian.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        digits(year, 4, &out)
        out.byte(UInt8(ascii: "-"))
        digits(month, 2, &out)
        out.byte(UInt8(ascii: "-"))
        digits(day, 2, &out)
        out.byte(UInt8(ascii: "T"))
    }

    static func text(_ millis: Int64) -> String {
        var out: [UInt8] = []
        append(millis, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` in exactly `width` decimal digits (zero-padded; higher digits dropped).
    @inline(__always)
    private static func digits(_ value: Int64, _ width: Int, _ out: inout ByteWriter) {
        var v = max(0, value)
        var i = width - 1
        while i >= 0 {
            out.base[out.count + i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
        out.advance(by: width)
    }
}
