/// A strict RFC 8259 parser working on UTF-8 bytes.
///
/// Errors say where the document went wrong (byte offset, line and column) so that an HTTP client
/// or a manifest author can find the spot. Nesting depth is bounded, invalid UTF-8 is refused and
/// strings may not hold raw control characters.
public struct JSONParser {
    public struct Options: Sendable {
        /// Deepest nesting of arrays and objects accepted.
        public var maxDepth: Int
        public init(maxDepth: Int = 64) { self.maxDepth = maxDepth }
    }

    public static func parse(_ text: String, options: Options = Options()) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8), options: options)
    }

    public static func parse(bytes: [UInt8], options: Options = Options()) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            try parse(bytes: buffer, options: options)
        }
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>, options: Options = Options()) throws(JSONParseError)
        -> JSONValue
    {
        var reader = JSONReader(bytes: bytes, maxDepth: options.maxDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        if reader.offset < bytes.count {
            throw reader.error("unexpected data after the end of the document")
        }
        return value
    }
}

/// Where and why a document is not valid JSON.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// 0-based byte offset of the problem.
    public let offset: Int
    /// 1-based line and column (column counted in bytes).
    public let line: Int
    public let column: Int

    public var description: String { "\(message) at line \(line), column \(column) (byte \(offset))" }
}

/// The low-level cursor. Public so that hot paths (the events decoder) can read a document
/// without building a `JSONValue` tree.
public struct JSONReader {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var offset: Int = 0
    let maxDepth: Int

    public init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    public func error(_ message: String, at position: Int? = nil) -> JSONParseError {
        let pos = min(position ?? offset, bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < pos {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
            i += 1
        }
        return JSONParseError(message: message, offset: pos, line: line, column: pos - lineStart + 1)
    }

    @inline(__always)
    public mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// The next significant byte without consuming it, or nil at the end.
    @inline(__always)
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    @inline(__always)
    public mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input, expected '\(Character(Unicode.Scalar(byte)))'") }
        guard bytes[offset] == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))', found \(describe(bytes[offset]))")
        }
        offset += 1
    }

    /// Consumes `byte` if it is next.
    @inline(__always)
    public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == byte { offset += 1; return true }
        return false
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    public mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            offset += 1
            var members: [(key: String, value: JSONValue)] = []
            if consume(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input inside an object") }
                guard bytes[offset] == UInt8(ascii: "\"") else {
                    throw error("expected a member name in double quotes, found \(describe(bytes[offset]))")
                }
                let key = try readString()
                try expect(UInt8(ascii: ":"))
                let value = try readValue(depth: depth + 1)
                members.append((key: key, value: value))
                if consume(UInt8(ascii: ",")) { continue }
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input inside an object") }
                if bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object(members) }
                throw error("expected ',' or '}' in an object, found \(describe(bytes[offset]))")
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            offset += 1
            var elements: [JSONValue] = []
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                elements.append(try readValue(depth: depth + 1))
                if consume(UInt8(ascii: ",")) { continue }
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input inside an array") }
                if bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(elements) }
                throw error("expected ',' or ']' in an array, found \(describe(bytes[offset]))")
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
            throw error("unexpected \(describe(bytes[offset])), expected a value")
        }
    }

    mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = offset
        let n = word.utf8CodeUnitCount
        guard offset + n <= bytes.count else { throw error("invalid literal", at: start) }
        let w = word.utf8Start
        for i in 0..<n where bytes[offset + i] != w[i] { throw error("invalid literal", at: start) }
        offset += n
    }

    /// Reads a number and returns its literal text (validated against the JSON grammar).
    public mutating func readNumberText() throws(JSONParseError) -> String {
        let (start, end) = try scanNumber()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Reads an integer without allocating; fails on fractions, exponents and overflow.
    public mutating func readInt64() throws(JSONParseError) -> Int64 {
        skipWhitespace()
        let begin = offset
        let (start, end) = try scanNumber()
        var i = start
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var value: Int64 = 0
        while i < end {
            let b = bytes[i]
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else {
                throw error("expected an integer", at: begin)
            }
            let digit = Int64(b - UInt8(ascii: "0"))
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
            if o1 || o2 { throw error("integer out of range", at: begin) }
            value = s
            i += 1
        }
        return value
    }

    mutating func scanNumber() throws(JSONParseError) -> (Int, Int) {
        skipWhitespace()
        let start = offset
        func digit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        var i = offset
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { throw error("invalid number", at: start) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { throw error("invalid number: leading zero", at: start) }
        } else {
            while digit(i) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { throw error("invalid number: digits expected after '.'", at: start) }
            while digit(i) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { throw error("invalid number: digits expected in exponent", at: start) }
            while digit(i) { i += 1 }
        }
        if i - start > 400 { throw error("number literal too long", at: start) }
        offset = i
        return (start, i)
    }

    /// Reads a string at the cursor (which must be on its opening quote).
    public mutating func readString() throws(JSONParseError) -> String {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            if offset >= bytes.count { throw error("unexpected end of input, expected a string") }
            throw error("expected a string, found \(describe(bytes[offset]))")
        }
        let quote = offset
        offset += 1
        let start = offset
        // Fast path: no escapes, ASCII only.
        var i = start
        var simple = true
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") || b >= 0x80 { simple = false; break }
            if b < 0x20 { throw error("control character in string (escape it)", at: i) }
            i += 1
        }
        if simple {
            guard i < bytes.count else { throw error("unterminated string", at: quote) }
            offset = i + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        }
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: quote) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { offset = i + 1; break }
            if b < 0x20 { throw error("control character in string (escape it)", at: i) }
            if b == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { throw error("unterminated string", at: quote) }
                switch bytes[i] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4(at: i + 1)
                    i += 4
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard i + 6 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate in \\u escape", at: i - 5) }
                        let low = try readHex4(at: i + 3)
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid surrogate pair", at: i - 5) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw error("unpaired surrogate in \\u escape", at: i - 5)
                    }
                    appendUTF8(UInt32(scalar), to: &out)
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(bytes[i])))'", at: i - 1)
                }
                i += 1
                continue
            }
            if b < 0x80 { out.append(b); i += 1; continue }
            let n = try validateUTF8Sequence(at: i)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + n)]))
            i += n
        }
        return String(decoding: out, as: UTF8.self)
    }

    func readHex4(at position: Int) throws(JSONParseError) -> Int {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape", at: position) }
        var v = 0
        for k in 0..<4 {
            let c = bytes[position + k]
            let d: Int
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = Int(c - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = Int(c - UInt8(ascii: "A")) + 10
            default: throw error("invalid hex digit in \\u escape", at: position + k)
            }
            v = v * 16 + d
        }
        return v
    }

    /// Length of the valid multi-byte UTF-8 sequence at `i`, or an error naming the bad byte.
    func validateUTF8Sequence(at i: Int) throws(JSONParseError) -> Int {
        let b0 = bytes[i]
        let n: Int
        var minScalar: UInt32
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
        minScalar = 0
        return n
    }

    /// Skips one value of any type (validating it).
    public mutating func skipValue(depth: Int) throws(JSONParseError) {
        _ = try readValue(depth: depth)
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
