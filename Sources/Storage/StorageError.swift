/// Errors of the storage layer, the only error type its public API throws. `kind` is open (a struct
/// wrapping a private enum) so new kinds do not break callers.
///
/// `description` is what a user may read: the kind and a message that never holds bind values,
/// SQL, secrets or the server's detail. `debugDescription` adds the reason and the underlying error
/// (a `PostgresError` with its SQLSTATE, detail, hint and SQL): for logs and `--verbose`.
public struct StorageError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
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

        /// PostgreSQL cannot take the work now but a retry can succeed: it cannot be reached (or
        /// went away mid-transaction), it is short of resources, read-only, in recovery, or a
        /// transaction lost to a conflicting one. Nothing was committed, or the outcome is unknown;
        /// a retry is safe because writes are idempotent. `reason` says which.
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

    /// Why the database is `.unavailable`, as a stable word for `/readyz`, logs and metrics. Open:
    /// compare with the constants.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        public let word: String
        private init(_ word: String) { self.word = word }

        /// It cannot be reached, or the connection was lost.
        public static let unreachable = Reason("unreachable")
        /// SQLSTATE 53100: the data disk is full.
        public static let diskFull = Reason("disk_full")
        /// SQLSTATE 53200.
        public static let outOfMemory = Reason("out_of_memory")
        /// SQLSTATE 53300 (or the server's "too many clients" at connect).
        public static let tooManyConnections = Reason("too_many_connections")
        /// Any other SQLSTATE of class 53.
        public static let insufficientResources = Reason("insufficient_resources")
        /// SQLSTATE 25006: the database refuses writes (`default_transaction_read_only`, a standby).
        public static let readOnly = Reason("read_only")
        /// SQLSTATE 57P03: the server is starting up, shutting down or in recovery and takes no new
        /// connections.
        public static let cannotConnectNow = Reason("cannot_connect_now")
        /// A deadlock or serialization failure between writers.
        public static let conflict = Reason("conflict")
        /// The day's event partition is not created yet.
        public static let partitionMissing = Reason("partition_missing")

        public var description: String { word }
    }

    public var kind: Kind
    public var message: String
    /// Why a `.unavailable` error happened, when known.
    public var reason: Reason?
    /// The underlying error (a `PostgresError`, with the server's detail and the SQL): for logs and
    /// `--verbose` only, never for a client.
    public var underlying: (any Error & Sendable)?

    public init(_ kind: Kind, _ message: String, reason: Reason? = nil, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.message = message
        self.reason = reason
        self.underlying = underlying
    }

    /// The kind and the message: never SQL, bind values or the server's detail.
    public var description: String { "\(kind): \(message)" }

    /// Everything: the reason and the underlying error with its SQLSTATE, detail, hint and SQL.
    public var debugDescription: String {
        var text = description
        if let reason { text += " [\(reason)]" }
        if let underlying { text += " (\(String(reflecting: underlying)))" }
        return text
    }
}
