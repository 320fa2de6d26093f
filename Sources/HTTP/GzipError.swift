/// Why ``Gzip/inflate(_:limit:)`` gave up.
public struct GzipError: Swift.Error, Sendable, CustomStringConvertible {
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case tooLarge = "too large"
            case corrupt
            case zlibFailure = "zlib failure"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The decompressed size would exceed the limit; decompression stopped there.
        public static let tooLarge = Kind(.tooLarge)
        /// The input is not valid gzip or zlib data, or it is truncated.
        public static let corrupt = Kind(.corrupt)
        /// zlib itself failed (out of memory, failed to initialise).
        public static let zlibFailure = Kind(.zlibFailure)

        public var description: String { value.rawValue }
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "gzip \(kind): \(message)" }
}
