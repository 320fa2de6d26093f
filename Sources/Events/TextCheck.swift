import Escaping
import JSON

/// The outcome of checking a bounded free-text value.
enum TextCheck {
    case text(String)
    case tooLong
    /// A control or bidi formatting character (`FreeText`).
    case refusedCharacter
}

/// A bounded free-text value: at most `maximum` Unicode scalars, none of them a control character
/// (C0, DEL, C1; which also keeps NUL, which PostgreSQL text cannot hold, out) or a bidi formatting
/// character (`FreeText`).
func readText(_ reader: JSONReader, _ span: JSONStringSpan, maximum: Int) -> TextCheck {
    withContent(reader, span) { bytes in
        var scalars = 0
        var ascii = true
        for b in bytes {
            if b < 0x20 || b == 0x7F { return .refusedCharacter }
            if b & 0xC0 != 0x80 { scalars += 1 }
            if b >= 0x80 { ascii = false }
        }
        if !ascii && FreeText.containsRefused(utf8: bytes) { return .refusedCharacter }
        return scalars > maximum ? .tooLong : .text(String(decoding: bytes, as: UTF8.self))
    }
}

/// An element type or command: 1 to `maximum` printable ASCII characters (0x21-0x7E), no spaces.
@inline(__always)
func isName(_ bytes: UnsafeBufferPointer<UInt8>, maximum: Int) -> Bool {
    guard bytes.count >= 1, bytes.count <= maximum else { return false }
    for b in bytes where b < 0x21 || b > 0x7E { return false }
    return true
}

/// Runs `body` on a string's content bytes: in place when it has no escapes, decoded otherwise.
@inline(__always)
func withContent<R>(_ reader: JSONReader, _ span: JSONStringSpan, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if !span.hasEscapes { return body(reader.rawBytes(span)) }
    return reader.decodeStringBytes(span).withUnsafeBufferPointer(body)
}
