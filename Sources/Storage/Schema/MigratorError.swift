/// Why migrating failed.
public struct MigratorError: Error, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// What failed. Open for new cases: compare with the static constants.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No migrations directory was found, or it holds no migration.
        public static let directoryNotFound = Kind("directoryNotFound")
        /// A file could not be read, or a `.sql` file is not named `NNNN_name.sql`.
        public static let badFile = Kind("badFile")
        /// Two files share a version number.
        public static let duplicateVersion = Kind("duplicateVersion")
        /// The database records a version the directory does not have.
        public static let unknownAppliedVersion = Kind("unknownAppliedVersion")
        /// An applied migration's file changed since it was applied.
        public static let checksumMismatch = Kind("checksumMismatch")
        /// A migration's SQL (or the bookkeeping around it) failed; see `underlying`.
        public static let migrationFailed = Kind("migrationFailed")
        /// `--distributed` on a database that is not a Citus coordinator.
        public static let citusUnavailable = Kind("citusUnavailable")
        /// Distributing the schema on Citus failed: a table breaks the rules, or Citus refused.
        public static let distributionFailed = Kind("distributionFailed")

        public var description: String { name }
    }

    public var kind: Kind
    public var message: String
    /// The migration concerned, if any.
    public var version: Int?
    /// The database error behind a `.migrationFailed`.
    public var underlying: (any Error & Sendable)?

    public init(kind: Kind, message: String, version: Int? = nil, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.message = message
        self.version = version
        self.underlying = underlying
    }

    /// The kind, the message and the underlying error's own description (a `PostgresError`'s
    /// SQLSTATE and primary message, without its detail or SQL).
    public var description: String {
        var text = "migration error (\(kind)): \(message)"
        if let underlying { text += ": \(underlying)" }
        return text
    }

    /// `description` with the underlying error in full (its detail, hint and SQL).
    public var debugDescription: String {
        var text = "migration error (\(kind)): \(message)"
        if let underlying { text += ": \(String(reflecting: underlying))" }
        return text
    }
}
