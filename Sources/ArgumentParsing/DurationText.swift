/// Reads and writes spans of time as numbers with units, largest first (`28d`, `1h30m`, `500ms`).
enum DurationText {
    private static let units: [(suffix: String, milliseconds: Int64)] = [
        ("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1),
    ]

    /// The duration `text` spells, or nil when it is not numbers with known units, each unit at most
    /// once and in decreasing size.
    static func parse(_ text: String) -> Duration? {
        var rest = Substring(text)
        var total: Int64 = 0
        var lastUnitIndex = -1
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 12, let amount = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            let letters = rest.prefix(while: { $0.isASCII && $0.isLetter })
            guard let unitIndex = units.firstIndex(where: { $0.suffix == letters }), unitIndex > lastUnitIndex
            else { return nil }
            rest = rest.dropFirst(letters.count)
            lastUnitIndex = unitIndex
            let (product, overflowed) = amount.multipliedReportingOverflow(by: units[unitIndex].milliseconds)
            guard !overflowed else { return nil }
            let (sum, sumOverflowed) = total.addingReportingOverflow(product)
            guard !sumOverflowed else { return nil }
            total = sum
        }
        return .milliseconds(total)
    }

    /// `span` in the largest units that divide it (`1h30m`); sub-millisecond parts are dropped.
    static func format(_ span: Duration) -> String {
        let (seconds, attoseconds) = span.components
        var remaining = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        guard remaining != 0 else { return "0s" }
        var text = ""
        if remaining < 0 {
            text = "-"
            remaining = remaining == .min ? .max : -remaining
        }
        for (suffix, size) in units where suffix != "w" && remaining >= size {
            text += String(remaining / size) + suffix
            remaining %= size
        }
        return text
    }
}
