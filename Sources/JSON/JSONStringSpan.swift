/// A string literal found by `JSONReader.scanString()`: where its content lies in the input
/// (between the quotes) and whether it holds escapes. A span without escapes can be read in place.
public struct JSONStringSpan: Sendable, Hashable {
    /// Offset of the first content byte (just after the opening quote).
    public let start: Int
    /// Offset of the closing quote.
    public let end: Int
    /// True when the content holds at least one backslash escape.
    public let hasEscapes: Bool
    /// True when every content byte is ASCII (escapes not decoded).
    public let isASCII: Bool

    @inlinable
    public init(start: Int, end: Int, hasEscapes: Bool, isASCII: Bool) {
        self.start = start
        self.end = end
        self.hasEscapes = hasEscapes
        self.isASCII = isASCII
    }

    /// Number of raw bytes between the quotes.
    @inlinable public var rawCount: Int { end - start }
}
