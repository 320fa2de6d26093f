/// Comparisons whose duration does not depend on where the inputs differ (for secrets and MACs).
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Takes time proportional to the longer input
    /// regardless of the content; only the lengths leak.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference: UInt8 = a.count == b.count ? 0 : 1
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }

    /// Same as `equals` on the UTF-8 bytes of two strings.
    public static func equals(_ a: String, _ b: String) -> Bool { equals(Array(a.utf8), Array(b.utf8)) }
}
