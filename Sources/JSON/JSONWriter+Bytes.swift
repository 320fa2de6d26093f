import Escaping

extension JSONWriter {
    /// Appends `s` as a JSON string literal to a byte buffer (Escaping's `JSONText`, the one rule):
    /// quotes, backslashes and control characters escaped, everything else copied as UTF-8. For
    /// response bodies built on a hot path.
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        JSONText.appendQuoted(s, to: &out)
    }

    /// Appends a JSON string literal for raw UTF-8 bytes (which must be valid UTF-8).
    public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        JSONText.appendQuoted(utf8: bytes, to: &out)
    }

    /// Appends a decimal integer.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 { out.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            while magnitude > 0 {
                buf[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            for k in stride(from: count - 1, through: 0, by: -1) { out.append(buf[k]) }
        }
    }
}
