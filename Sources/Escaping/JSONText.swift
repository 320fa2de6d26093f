/// JSON string literals (RFC 8259): the one place that quotes text for every JSON output, whether
/// the JSON writer's documents, the HTTP layer's error bodies or the JSON log lines.
///
/// A quotation mark and a backslash get a backslash; the control characters below U+0020 get their
/// short escape where JSON has one (`\n`, `\r`, `\t`, `\b`, `\f`) and `\u00XX` (lower-case hex)
/// otherwise; every other byte is copied as it is. Like the other escapers here it works on UTF-8
/// bytes: each byte it escapes is ASCII, and an ASCII byte never occurs inside a multi-byte
/// sequence.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal. `escapingDelete` also writes U+007F as `\u007f`
    /// (log lines, read on terminals, want every invisible character visible).
    public static func appendQuoted(_ text: String, to out: inout String, escapingDelete: Bool = false) {
        out.append("\"")
        var needsEscape = false
        for b in text.utf8 where b < 0x20 || b == 0x22 || b == 0x5C || (escapingDelete && b == 0x7F) {
            needsEscape = true
            break
        }
        if !needsEscape {
            out.append(text)
        } else {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count + 8)
            for b in text.utf8 {
                if b < 0x20 || b == 0x22 || b == 0x5C || (escapingDelete && b == 0x7F) {
                    appendEscape(b, to: &bytes)
                } else {
                    bytes.append(b)
                }
            }
            out.append(String(decoding: bytes, as: UTF8.self))
        }
        out.append("\"")
    }

    /// Appends `text` as a JSON string literal to a byte buffer (response bodies built on a hot
    /// path): the runs between escapes are copied whole.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted(utf8: $0, to: &out) }
    }

    /// Appends a JSON string literal for raw UTF-8 bytes (which must be valid UTF-8).
    public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<bytes.count {
            let b = bytes[i]
            guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            appendEscape(b, to: &out)
            runStart = i + 1
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ b: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch b {
        case 0x22: out.append(UInt8(ascii: "\""))
        case 0x5C: out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            let digits: StaticString = "0123456789abcdef"
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    digits.utf8Start[Int(b >> 4)], digits.utf8Start[Int(b & 0x0F)]])
        }
    }
}
