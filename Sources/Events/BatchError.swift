import JSON

/// A problem with a request body as a whole (as opposed to one bad event): the request is refused.
public struct BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem; its `code` is the `error` value of the response body.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        public let code: String
        /// The HTTP status the ingestion endpoint answers with.
        public let httpStatus: Int
        public init(code: String, httpStatus: Int) {
            self.code = code
            self.httpStatus = httpStatus
        }
        public var description: String { code }

        /// Not JSON at all, or nested deeper than allowed: `offset`, `line` and `column` say where.
        public static let invalidJSON = Kind(code: "invalid_json", httpStatus: 400)
        /// Valid JSON but not a batch: not an object, `events` missing or not an array, a bad
        /// `sent_at` or `context`, a top-level member given twice.
        public static let invalidBatch = Kind(code: "invalid_batch", httpStatus: 400)
        /// More events than the limit: the client should split the batch.
        public static let tooManyEvents = Kind(code: "too_many_events", httpStatus: 413)
    }

    public let kind: Kind
    public let message: String
    /// 0-based byte offset, 1-based line and column (bytes) of an `invalid_json` problem.
    public let offset: Int?
    public let line: Int?
    public let column: Int?

    public init(kind: Kind, message: String, offset: Int? = nil, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    init(_ error: JSONParseError) {
        self.init(kind: .invalidJSON, message: error.description, offset: error.offset, line: error.line,
                  column: error.column)
    }

    public var code: String { kind.code }
    public var httpStatus: Int { kind.httpStatus }
    public var description: String { "\(kind.code): \(message)" }
}
