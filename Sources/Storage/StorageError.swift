/// Errors of the storage layer. `kind` is open (a struct wrapping a private enum) so new kinds do
/// not break callers. The message never holds bind values or secrets.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case unavailable = "database unavailable"
            case shuttingDown = "shutting down"
            case notFound = "not found"
            case alreadyExists = "already exists"
            case invalidArgument = "invalid argument"
            case database = "database error"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// PostgreSQL cannot be reached (or went away mid-transaction): nothing was committed, or
        /// the outcome is unknown; a retry is safe because writes are idempotent.
        public static let unavailable = Kind(.unavailable)
        /// The writer is stopping and takes no new work.
        public static let shuttingDown = Kind(.shuttingDown)
        public static let notFound = Kind(.notFound)
        public static let alreadyExists = Kind(.alreadyExists)
        public static let invalidArgument = Kind(.invalidArgument)
        /// Any other database failure.
        public static let database = Kind(.database)

        public var description: String { value.rawValue }
    }

    public var kind: Kind
    public var message: String
    /// The underlying error (a `PostgresError`), for logs.
    public var underlying: (any Error & Sendable)?

    public init(_ kind: Kind, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying { return "\(kind): \(message) (\(underlying))" }
        return "\(kind): \(message)"
    }
}
