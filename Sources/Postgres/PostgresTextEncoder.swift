/// Writes values in PostgreSQL's text format into a byte buffer.
///
/// The same encoder serves binds (values sent as they are, one per parameter) and COPY
/// (values escaped for COPY's text format: backslash, tab, newline and carriage return as
/// backslash sequences, NULL as `\N`). Text that contains a NUL byte is refused with a
/// `.encoding` error in both cases, because PostgreSQL text cannot hold U+0000.
public struct PostgresTextEncoder {
    var bytes: [UInt8]
    let escapesForCopy: Bool
    /// Set when the value written was NULL (binds only; COPY writes `\N`).
    var wroteNull = false

    init(capacity: Int, escapesForCopy: Bool) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.escapesForCopy = escapesForCopy
    }

    /// Writes SQL NULL.
    public mutating func appendNull() {
        if escapesForCopy {
            bytes.append(0x5C)
            bytes.append(0x4E)
        } else {
            wroteNull = true
        }
    }

    /// Writes text, escaped as the destination needs.
    /// - Throws: `PostgresError` of kind `.encoding` when the text holds a NUL byte.
    public mutating func append(text: some StringProtocol) throws(PostgresError) {
        try appendUTF8(of: String(text), arrayElement: false)
    }

    mutating func appendUTF8(of string: String, arrayElement: Bool) throws(PostgresError) {
        var string = string
        var failure: PostgresError?
        string.withUTF8 { buffer in
            do throws(PostgresError) {
                try appendTextBytes(buffer, arrayElement: arrayElement)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Appends bytes known to need no escaping (digits, hex, ASCII letters, punctuation other
    /// than backslash).
    @inline(__always)
    mutating func appendPlain(_ byte: UInt8) { bytes.append(byte) }

    mutating func appendPlain(_ ascii: StaticString) {
        ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A backslash, doubled when the destination is COPY.
    mutating func appendBackslash() {
        bytes.append(0x5C)
        if escapesForCopy { bytes.append(0x5C) }
    }

    static let nulError = PostgresError(
        kind: .encoding, message: "text contains a NUL byte (U+0000), which PostgreSQL text cannot hold")

    @inline(__always)
    private static func isSpecial(_ byte: UInt8, arrayElement: Bool) -> Bool {
        byte == 0 || byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D || (arrayElement && byte == 0x22)
    }

    /// Writes UTF-8 text; as an array element it is also quoted-escaped (`"` and `\`).
    mutating func appendTextBytes(_ source: UnsafeBufferPointer<UInt8>, arrayElement: Bool) throws(PostgresError) {
        if !escapesForCopy && !arrayElement {
            if source.contains(0) { throw Self.nulError }
            bytes.append(contentsOf: source)
            return
        }
        var clean = source.startIndex
        for index in source.indices where Self.isSpecial(source[index], arrayElement: arrayElement) {
            let byte = source[index]
            if byte == 0 { throw Self.nulError }
            if arrayElement && (byte == 0x22 || byte == 0x5C) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[clean..<index]))
                appendBackslash()
                if byte == 0x22 { bytes.append(0x22) } else { appendBackslash() }
                clean = index + 1
                continue
            }
            // Only COPY reaches here: backslash, tab, newline, carriage return.
            if !escapesForCopy { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[clean..<index]))
            bytes.append(0x5C)
            switch byte {
            case 0x09: bytes.append(0x74)  // \t
            case 0x0A: bytes.append(0x6E)  // \n
            case 0x0D: bytes.append(0x72)  // \r
            default: bytes.append(0x5C)  // \\
            }
            clean = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[clean...]))
    }

    /// Decimal digits of a signed integer, without going through `String`.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(0x30 + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            while magnitude > 0 {
                index -= 1
                digits[index] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// A non-negative integer padded with zeros to at least `width` digits.
    mutating func appendPadded(_ value: Int, width: Int) {
        var digits = 1
        var limit = 10
        while value >= limit && digits < 19 {
            digits += 1
            limit *= 10
        }
        for _ in digits..<max(digits, width) { bytes.append(0x30) }
        appendInteger(Int64(value))
    }

    /// Two lower-case hex digits.
    @inline(__always)
    mutating func appendHex(_ byte: UInt8) {
        let high = byte >> 4
        let low = byte & 0x0F
        bytes.append(high < 10 ? 0x30 + high : 0x57 + high)
        bytes.append(low < 10 ? 0x30 + low : 0x57 + low)
    }
}
