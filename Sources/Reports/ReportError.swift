/// What went wrong reading a stored report document back (a proposal's JSON from the database).
public struct ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A member is missing, has the wrong JSON type or a value out of its domain.
        public static let invalidDocument = Kind("invalid_document")
        /// A layout inside the document breaks the manifest shape.
        public static let invalidLayout = Kind("invalid_layout")
        /// The text is not JSON at all.
        public static let syntax = Kind("syntax")

        public var description: String { name }
    }

    public let kind: Kind
    /// Where in the document, as a JSON path (`$.element_types[0].commands[2].share`).
    public let path: String
    public let message: String

    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
