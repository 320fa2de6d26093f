/// Deterministic number formatting for reports: the same value always gives the same text, with
/// no locale, and JSON values are rounded to a fixed number of decimals before they are stored or
/// written so that a document read back writes the same bytes.
public enum ReportNumber {
    /// Decimals kept for shares and their interval bounds.
    public static let shareDecimals = 6
    /// Decimals kept for expected scan depths (items per selection).
    public static let scanDepthDecimals = 4
    /// Decimals kept for the estimated seconds saved per selection.
    public static let secondsDecimals = 4

    /// `x` rounded half away from zero to `decimals` places (non-finite values become 0).
    public static func rounded(_ x: Double, decimals: Int) -> Double {
        guard x.isFinite else { return 0 }
        let scale = power(decimals)
        let scaled = (x * scale).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9e15 else { return x }
        let result = scaled / scale
        return result == 0 ? 0 : result
    }

    /// `x` written with `decimals` places; with `trimmingZeros`, trailing zeros (and a bare point)
    /// are dropped, which is how JSON numbers are written (`0.0625`, `3`, `0.404339`).
    public static func decimal(_ x: Double, decimals: Int, trimmingZeros: Bool = false) -> String {
        guard x.isFinite else { return "0" }
        let scaledDouble = (x * power(decimals)).rounded(.toNearestOrAwayFromZero)
        guard abs(scaledDouble) < 9e15 else { return "\(x)" }
        let scaled = Int64(scaledDouble)
        let negative = scaled < 0
        let magnitude = negative ? -scaled : scaled
        let unit = Int64(power(decimals))
        // Digits written backwards into a small buffer: the fraction (zero-padded to `decimals`
        // places, trailing zeros dropped when trimming), the point, the whole part, the sign.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var end = 48
            func put(_ byte: UInt8) {
                end -= 1
                buffer[end] = byte
            }
            if decimals > 0 {
                var fraction = magnitude % unit
                var places = decimals
                if trimmingZeros {
                    while places > 0, fraction % 10 == 0 {
                        fraction /= 10
                        places -= 1
                    }
                }
                if places > 0 {
                    for _ in 0..<places {
                        put(UInt8(ascii: "0") + UInt8(fraction % 10))
                        fraction /= 10
                    }
                    put(UInt8(ascii: "."))
                }
            }
            var whole = magnitude / unit
            repeat {
                put(UInt8(ascii: "0") + UInt8(whole % 10))
                whole /= 10
            } while whole > 0
            if negative && magnitude != 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[end...]), as: UTF8.self)
        }
    }

    /// A share as a percentage with two decimals: `0.0020` gives `0.20%`.
    public static func percent(_ share: Double, decimals: Int = 2) -> String {
        decimal(share * 100, decimals: decimals) + "%"
    }

    /// A count with thousands separators: `10140` gives `10,140`.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    private static func power(_ decimals: Int) -> Double {
        var p = 1.0
        for _ in 0..<max(0, decimals) { p *= 10 }
        return p
    }
}
