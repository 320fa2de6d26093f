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
        if !reader.isAtEnd {
            throw reader.error("unexpected data after the end of the document")
        }
        return value
    }
}
