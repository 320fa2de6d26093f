/// An app version as `--min-app-version` compares it: the leading dotted numbers of the text the
/// app sent (`app_version`), compared number by number, so 4.10 comes after 4.9, and a missing
/// number counts as 0 (4.2 equals 4.2.0). Whatever follows the numbers is ignored (5.2.1-beta and
/// "5.2.1 (1234)" are 5.2.1). Numbers of any length compare correctly: they are kept as digits.
///
/// The rollups order the versions of an app the same way in SQL (`segments.version_key`, sql/0014:
/// the same leading numbers as a numeric array), which is what keeps `--min-app-version` exact.
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, as digit strings without leading zeros ("0" for zero), trailing zeros dropped.
    public let components: [Substring]
    /// The numbers as they were written (for messages).
    public let description: String

    /// The leading dotted numbers of `text`, or nil when it does not start with a digit.
    public init?(leadingNumbersOf text: String) {
        var numbers: [Substring] = []
        var rest = Substring(text)
        var written = Substring(text).prefix(0)
        while let first = rest.first, first.isASCII, first.isNumber {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            numbers.append(digits.drop { $0 == "0" }.isEmpty ? "0" : digits.drop { $0 == "0" })
            written = text[text.startIndex..<digits.endIndex]
            rest = rest[digits.endIndex...]
            guard rest.first == ".", let next = rest.dropFirst().first, next.isASCII, next.isNumber else { break }
            rest = rest.dropFirst()
        }
        guard !numbers.isEmpty else { return nil }
        while numbers.count > 1, numbers.last == "0" { numbers.removeLast() }
        components = numbers
        description = String(written)
    }

    /// A version written as dotted numbers and nothing else (`4.2`, `10.0.3`), as
    /// `--min-app-version` takes it; nil for anything else.
    public init?(exactly text: String) {
        guard let version = AppVersion(leadingNumbersOf: text), version.description == text else { return nil }
        self = version
    }

    public static func == (a: AppVersion, b: AppVersion) -> Bool { a.components == b.components }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public static func < (a: AppVersion, b: AppVersion) -> Bool {
        for index in 0..<max(a.components.count, b.components.count) {
            let x = index < a.components.count ? a.components[index] : "0"
            let y = index < b.components.count ? b.components[index] : "0"
            if x.count != y.count { return x.count < y.count }
            if x != y { return x < y }
        }
        return false
    }
}
