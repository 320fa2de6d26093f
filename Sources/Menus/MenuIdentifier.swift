/// The character rule shared by element types and command ids (DESIGN.md, "Words"): 1-128
/// printable ASCII characters (0x21-0x7E), so no spaces, no control characters and nothing beyond
/// ASCII.
public enum MenuIdentifier {
    public static let maxLength = 128

    /// The rule in words, for error messages.
    public static let ruleDescription = "must be 1-128 printable ASCII characters without spaces"

    public static func isValid(_ id: String) -> Bool {
        var count = 0
        for byte in id.utf8 {
            guard byte >= 0x21 && byte <= 0x7E else { return false }
            count += 1
            if count > maxLength { return false }
        }
        return count > 0
    }
}
