/// The low-level cursor over UTF-8 bytes. Public so that hot paths (the events decoder) can read a
/// document without building a `JSONValue` tree: `peekKind()` tells what comes next, `scanString()`
/// validates a string in place and returns its span, `readInteger()` reads a number without
/// allocating, `skipValue(depth:)` validates and skips anything else.
///
/// Every method validates what it consumes (RFC 8259: no trailing commas, no leading zeros, no raw
/// control characters in strings, valid UTF-8, paired surrogates) and throws a `JSONParseError` that
/// says where the document went wrong.
public struct JSONReader {
    public let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var position: Int = 0
    @usableFromInline let maxDepth: Int

    public init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// 0-based offset of the cursor.
    @inlinable public var offset: Int { position }

    /// Deepest nesting of arrays and objects accepted by `readValue` and `skipValue`.
    @inlinable public var depthLimit: Int { maxDepth }

    /// True when the cursor is past the last byte (whitespace not skipped).
    @inlinable public var isAtEnd: Bool { position >= bytes.count }

    public func error(_ message: String, at position: Int? = nil) -> JSONParseError {
        let pos = min(position ?? self.position, bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < pos {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
            i += 1
        }
        return JSONParseError(message: message, offset: pos, line: line, column: pos - lineStart + 1)
    }

    @inlinable
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next significant byte without consuming it, or nil at the end.
    @inlinable
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// The kind of the next value, or nil at the end of input or when the next byte cannot start a
    /// value (`skipValue` then throws the precise error).
    @inlinable
    public mutating func peekKind() -> JSONValueKind? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return nil
        }
    }

    @inlinable
    public mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        if position < bytes.count, bytes[position] == byte {
            position += 1
            return
        }
        throw unexpected(expecting: byte)
    }

    @usableFromInline
    func unexpected(expecting byte: UInt8) -> JSONParseError {
        let wanted = Character(Unicode.Scalar(byte))
        guard position < bytes.count else { return error("unexpected end of input, expected '\(wanted)'") }
        return error("expected '\(wanted)', found \(describe(bytes[position]))")
    }

    /// Consumes `byte` if it is next.
    @inlinable
    public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if position < bytes.count, bytes[position] == byte { position += 1; return true }
        return false
    }

    /// A byte as it should appear in an error message.
    public func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: Values

    public mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            position += 1
            var members: [(key: String, value: JSONValue)] = []
            if consume(UInt8(ascii: "}")) { return .object(members) }
            while true {
                try expectMemberName()
                let key = try readString()
                try expect(UInt8(ascii: ":"))
                let value = try readValue(depth: depth + 1)
                members.append((key: key, value: value))
                if try endOfContainer(UInt8(ascii: "}"), inside: "an object") { return .object(members) }
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            position += 1
            var elements: [JSONValue] = []
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                elements.append(try readValue(depth: depth + 1))
                if try endOfContainer(UInt8(ascii: "]"), inside: "an array") { return .array(elements) }
            }
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(JSONNumber(text: try readNumberText()))
        default:
            throw error("unexpected \(describe(bytes[position])), expected a value")
        }
    }

    /// Skips one value of any type, validating it, without building anything.
    public mutating func skipValue(depth: Int) throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            position += 1
            if consume(UInt8(ascii: "}")) { return }
            while true {
                try expectMemberName()
                _ = try scanString()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
                if try endOfContainer(UInt8(ascii: "}"), inside: "an object") { return }
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            position += 1
            if consume(UInt8(ascii: "]")) { return }
            while true {
                try skipValue(depth: depth + 1)
                if try endOfContainer(UInt8(ascii: "]"), inside: "an array") { return }
            }
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "t"):
            try readLiteral("true")
        case UInt8(ascii: "f"):
            try readLiteral("false")
        case UInt8(ascii: "n"):
            try readLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try scanNumber()
        default:
            throw error("unexpected \(describe(bytes[position])), expected a value")
        }
    }

    /// After a member or element: consumes ',' (returns false: more follows) or the closing
    /// bracket (returns true). A ',' directly followed by the closing bracket is refused.
    public mutating func endOfContainer(_ close: UInt8, inside what: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input inside \(what)") }
        let b = bytes[position]
        if b == close { position += 1; return true }
        if b == UInt8(ascii: ",") {
            let comma = position
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == close {
                throw error("trailing comma in \(what)", at: comma)
            }
            return false
        }
        let closing = Character(Unicode.Scalar(close))
        throw error("expected ',' or '\(closing)' in \(what), found \(describe(b))")
    }

    /// Checks that a member name (a '"') comes next, without consuming it.
    public mutating func expectMemberName() throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input inside an object") }
        guard bytes[position] == UInt8(ascii: "\"") else {
            throw error("expected a member name in double quotes, found \(describe(bytes[position]))")
        }
    }

    // MARK: Literals

    public mutating func readBool() throws(JSONParseError) -> Bool {
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "t") { try readLiteral("true"); return true }
        if position < bytes.count, bytes[position] == UInt8(ascii: "f") { try readLiteral("false"); return false }
        throw position < bytes.count
            ? error("expected true or false, found \(describe(bytes[position]))")
            : error("unexpected end of input, expected true or false")
    }

    public mutating func readNull() throws(JSONParseError) {
        skipWhitespace()
        try readLiteral("null")
    }

    mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = position
        let n = word.utf8CodeUnitCount
        guard position + n <= bytes.count else { throw error("invalid literal", at: start) }
        let w = word.utf8Start
        for i in 0..<n where bytes[position + i] != w[i] { throw error("invalid literal", at: start) }
        position += n
    }

    // MARK: Numbers

    /// Reads a number and returns its literal text (validated against the JSON grammar).
    public mutating func readNumberText() throws(JSONParseError) -> String {
        let (start, end) = try scanNumber()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Reads an integer without allocating; fails on fractions, exponents and overflow.
    public mutating func readInt64() throws(JSONParseError) -> Int64 {
        skipWhitespace()
        let begin = position
        guard let value = try readInteger() else {
            let (start, end) = (begin, position)
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if text.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
                throw error("expected an integer", at: begin)
            }
            throw error("integer out of range", at: begin)
        }
        return value
    }

    /// Reads a number (throwing only when it is not valid JSON) and returns its value when it is an
    /// integer literal (no fraction, no exponent) that fits in `Int64`, nil otherwise.
    public mutating func readInteger() throws(JSONParseError) -> Int64? {
        let (start, end) = try scanNumber()
        var i = start
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value: Int64 = 0
        while i < end {
            let b = bytes[i]
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(b &- UInt8(ascii: "0"))
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = s
            i += 1
        }
        return value
    }

    mutating func scanNumber() throws(JSONParseError) -> (Int, Int) {
        skipWhitespace()
        let start = position
        let n = bytes.count
        func digit(_ i: Int) -> Bool { i < n && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        var i = position
        if i < n && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { throw error("invalid number", at: start) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { throw error("invalid number: leading zero", at: start) }
        } else {
            while digit(i) { i += 1 }
        }
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { throw error("invalid number: digits expected after '.'", at: start) }
            while digit(i) { i += 1 }
        }
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { throw error("invalid number: digits expected in exponent", at: start) }
            while digit(i) { i += 1 }
        }
        if i - start > 400 { throw error("number literal too long", at: start) }
        position = i
        return (start, i)
    }

    // MARK: Strings

    /// Reads a string at the cursor (which must be on its opening quote).
    public mutating func readString() throws(JSONParseError) -> String {
        let span = try scanString()
        return decodeString(span)
    }

    /// Validates the string at the cursor (escapes, UTF-8, no raw control characters), moves past it
    /// and returns where its content lies. Allocates nothing.
    public mutating func scanString() throws(JSONParseError) -> JSONStringSpan {
        skipWhitespace()
        let n = bytes.count
        guard position < n, bytes[position] == UInt8(ascii: "\"") else {
            if position >= n { throw error("unexpected end of input, expected a string") }
            throw error("expected a string, found \(describe(bytes[position]))")
        }
        let quote = position
        let start = position + 1
        var i = start
        var escapes = false
        var ascii = true
        while true {
            guard i < n else { throw error("unterminated string", at: quote) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                escapes = true
                i = try validateEscape(at: i, quote: quote)
            } else if b >= 0x80 {
                ascii = false
                i += try validateUTF8Sequence(at: i)
            } else if b < 0x20 {
                throw error("control character in string (escape it)", at: i)
            } else {
                i += 1
            }
        }
        position = i + 1
        return JSONStringSpan(start: start, end: i, hasEscapes: escapes, isASCII: ascii)
    }

    /// The raw content bytes of a span (escapes not decoded), pointing into the input.
    @inlinable
    public func rawBytes(_ span: JSONStringSpan) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
    }

    /// The string a span stands for, escapes decoded.
    public func decodeString(_ span: JSONStringSpan) -> String {
        if !span.hasEscapes { return String(decoding: rawBytes(span), as: UTF8.self) }
        return String(decoding: decodeStringBytes(span), as: UTF8.self)
    }

    /// The UTF-8 bytes a span stands for, escapes decoded. The span must come from `scanString()`
    /// on this reader (so it is known to be valid).
    public func decodeStringBytes(_ span: JSONStringSpan) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(span.rawCount)
        var i = span.start
        while i < span.end {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
            let e = bytes[i + 1]
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hexValue(at: i + 2))
                i += 6
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    let low = UInt32(hexValue(at: i + 2))
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                appendUTF8(scalar, to: &out)
                continue
            default: out.append(e)  // '"', '\\', '/'
            }
            i += 2
        }
        return out
    }

    /// Validates the escape whose backslash is at `i`; returns the offset just past it.
    func validateEscape(at i: Int, quote: Int) throws(JSONParseError) -> Int {
        guard i + 1 < bytes.count else { throw error("unterminated string", at: quote) }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            let high = try readHex4(at: i + 2)
            if high >= 0xDC00 && high < 0xE000 { throw error("unpaired surrogate in \\u escape", at: i) }
            guard high >= 0xD800 && high < 0xDC00 else { return i + 6 }
            guard i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in \\u escape", at: i)
            }
            let low = try readHex4(at: i + 8)
            guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid surrogate pair", at: i) }
            return i + 12
        default:
            let c = bytes[i + 1]
            let shown = c >= 0x20 && c < 0x7F ? "'\\\(Character(Unicode.Scalar(c)))'" : "(backslash then \(describe(c)))"
            throw error("invalid escape \(shown)", at: i)
        }
    }

    func readHex4(at position: Int) throws(JSONParseError) -> Int {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape", at: position) }
        for k in 0..<4 where hexDigit(bytes[position + k]) < 0 {
            throw error("invalid hex digit in \\u escape", at: position + k)
        }
        return hexValue(at: position)
    }

    func hexValue(at position: Int) -> Int {
        var v = 0
        for k in 0..<4 { v = v &* 16 &+ hexDigit(bytes[position + k]) }
        return v
    }

    /// Length of the valid multi-byte UTF-8 sequence at `i`, or an error naming the bad byte.
    func validateUTF8Sequence(at i: Int) throws(JSONParseError) -> Int {
        let b0 = bytes[i]
        let n: Int
        let minScalar: UInt32
        var scalar: UInt32
        switch b0 {
        case 0xC2...0xDF: n = 2; scalar = UInt32(b0 & 0x1F); minScalar = 0x80
        case 0xE0...0xEF: n = 3; scalar = UInt32(b0 & 0x0F); minScalar = 0x800
        case 0xF0...0xF4: n = 4; scalar = UInt32(b0 & 0x07); minScalar = 0x10000
        default: throw error("invalid UTF-8", at: i)
        }
        guard i + n <= bytes.count else { throw error("invalid UTF-8 (truncated sequence)", at: i) }
        for k in 1..<n {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { throw error("invalid UTF-8", at: i + k) }
            scalar = (scalar << 6) | UInt32(c & 0x3F)
        }
        if scalar < minScalar || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar < 0xE000) {
            throw error("invalid UTF-8", at: i)
        }
        return n
    }
}

@inline(__always)
func hexDigit(_ c: UInt8) -> Int {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c &- UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c &- UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c &- UInt8(ascii: "A")) + 10
    default: return -1
    }
}

@inline(__always)
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80: out.append(UInt8(scalar))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | (scalar >> 6))); out.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | (scalar >> 12))); out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
        out.append(UInt8(0xF0 | (scalar >> 18))); out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F))); out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
}
