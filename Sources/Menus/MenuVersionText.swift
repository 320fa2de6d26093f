import Escaping

/// The `menu_version` of a layout: the string apps send back with each event so that outcomes can
/// be measured per layout. The events API stores at most 64 characters without control or bidi
/// formatting characters (`FreeText`), so a version is 1-64 such characters.
public enum MenuVersionText {
    public static let maximumLength = 64
    public static let ruleDescription = "must be 1-64 characters without " + FreeText.ruleDescription

    public static func isValid(_ text: String) -> Bool {
        let count = text.unicodeScalars.count
        return (1...maximumLength).contains(count)
            && FreeText.firstRefused(in: text) == nil
    }

    /// The version of a new layout of an element type: `requested` when it is valid and no other
    /// layout of the element type uses it, else `base+N` for layout version N (base cut so that the
    /// whole fits 64 characters; `v` when base is empty), else that with `.2`, `.3`... appended.
    public static func assign(requested: String?, base: String, layoutVersion: Int, taken: Set<String>) -> String {
        if let requested, isValid(requested), !taken.contains(requested) { return requested }
        let suffix = "+\(layoutVersion)"
        var stem = base.unicodeScalars.filter { !FreeText.isRefused($0) }.map(String.init).joined()
        if stem.isEmpty { stem = "v" }
        func fit(_ tail: String) -> String {
            String(String.UnicodeScalarView(stem.unicodeScalars.prefix(maximumLength - tail.unicodeScalars.count))) + tail
        }
        var candidate = fit(suffix)
        var n = 2
        while taken.contains(candidate) {
            candidate = fit("\(suffix).\(n)")
            n += 1
        }
        return candidate
    }
}
