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
        var whole = String(magnitude / unit)
        if decimals > 0 {
            var fraction = String(magnitude % unit)
            fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
            if trimmingZeros {
                while fraction.last == "0" { fraction.removeLast() }
            }
            if !fraction.isEmpty { whole += "." + fraction }
        }
        return negative && magnitude != 0 ? "-" + whole : whole
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
