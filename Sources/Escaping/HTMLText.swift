/// Escaping for HTML text and attribute values (also valid inside inline SVG): the one place that
/// turns text into markup for every HTML output (`menurank report`, `GET /v1/admin/reports/ID`).
///
/// It works on UTF-8 bytes, never on `Character`s. A Swift `Character` is a grapheme cluster, and a
/// "Prepend" scalar such as U+0600 ARABIC NUMBER SIGN joins the scalar after it into one
/// Character: a loop that compares Characters with `"<"` finds `"\u{600}<"` and copies the `<` raw,
/// which let a `menu_version` from any write key run script in the report (issue 32). Each of the
/// five characters escaped here is one ASCII byte, and in UTF-8 an ASCII byte never occurs inside
/// a multi-byte sequence, so a byte loop sees every one of them wherever it stands.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references; every other byte unchanged.
    /// Safe in element content and in a quoted attribute value (single or double quotes).
    public static func escaped(_ text: String) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            var firstSpecial = -1
            for i in 0..<utf8.count where reference(for: utf8[i]) != nil {
                firstSpecial = i
                break
            }
            if firstSpecial < 0 { return String(decoding: utf8, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count + 16)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<firstSpecial]))
            for i in firstSpecial..<utf8.count {
                let b = utf8[i]
                if let reference = reference(for: b) { out.append(contentsOf: reference.utf8) } else { out.append(b) }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    @inline(__always)
    private static func reference(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        case UInt8(ascii: "'"): return "&#39;"
        default: return nil
        }
    }
}
