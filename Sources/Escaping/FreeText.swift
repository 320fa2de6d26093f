/// The rule for free text that people type or apps send (event fields such as `menu_version`,
/// `user` or `locale`, review notes, the title of kept commands): no control characters and no
/// bidirectional formatting characters.
///
/// Why both: a C0 or C1 control (ESC, CSI U+009B, ...) printed to a terminal is a command to the
/// terminal, and a bidi override or isolate reorders what a reader sees (U+202E shows `txt.exe` as
/// `exe.txt`, and can make a note seem to say what it does not). Such text is refused where it
/// enters; what is printed anyway (older rows, titles from manifests) goes through
/// `TerminalText.visible`.
public enum FreeText {
    /// What the rule refuses, in words for error messages and docs.
    public static let ruleDescription =
        "control characters (U+0000-U+001F, U+007F-U+009F) or bidirectional formatting characters "
        + "(U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)"

    /// Whether `scalar` is a control character: C0, DEL or C1.
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// Whether `scalar` is a bidirectional formatting character: the Arabic letter mark, the
    /// left-to-right and right-to-left marks, the embeddings and overrides (U+202A-U+202E) and the
    /// isolates (U+2066-U+2069).
    @inline(__always)
    public static func isBidiFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether free text may not hold `scalar`; `allowingLineBreaks` lets newline and tab through
    /// (a note may have several lines).
    @inline(__always)
    public static func isRefused(_ scalar: Unicode.Scalar, allowingLineBreaks: Bool = false) -> Bool {
        if allowingLineBreaks && (scalar == "\n" || scalar == "\t") { return false }
        return isControl(scalar) || isBidiFormatting(scalar)
    }

    /// The first scalar of `text` that the rule refuses, nil when there is none.
    public static func firstRefused(in text: String, allowingLineBreaks: Bool = false) -> Unicode.Scalar? {
        text.unicodeScalars.first { isRefused($0, allowingLineBreaks: allowingLineBreaks) }
    }

    /// Whether valid UTF-8 `bytes` hold a refused scalar. A byte loop for the ingest path: ASCII
    /// costs one comparison, and only the lead bytes of the refused multi-byte scalars (0xC2 for
    /// C1, 0xD8 for U+061C, 0xE2 for the rest) look further.
    @inline(__always)
    public static func containsRefused(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x7F { return true }
                i += 1
                continue
            }
            switch b {
            case 0xC2:  // U+0080-U+00BF: C1 controls are U+0080-U+009F
                if i + 1 < n && bytes[i + 1] <= 0x9F { return true }
            case 0xD8:  // U+0600-U+063F: U+061C is D8 9C
                if i + 1 < n && bytes[i + 1] == 0x9C { return true }
            case 0xE2:  // U+2000-U+2FFF
                if i + 2 < n {
                    let b1 = bytes[i + 1], b2 = bytes[i + 2]
                    if b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (0xAA...0xAE).contains(b2)) { return true }
                    if b1 == 0x81 && (0xA6...0xA9).contains(b2) { return true }
                }
            default:
                break
            }
            i += 1
        }
        return false
    }
}
