/// The one error type of the Postgres layer.
///
/// `description` shows the kind, SQLSTATE and the server's primary message: what a user may read.
/// `debugDescription` adds the detail, hint, the constraint, table and column it names, and the
/// SQL text, for logs and `--verbose`. Neither shows bound values (though a server's detail may
/// quote a key's value, which is why it stays out of `description`).
public struct PostgresError: Error, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// What failed. Open for new cases: compare with the static constants.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case connection, query, encoding, decoding, copy, transaction, poolTimeout, poolClosed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Connecting failed, or the connection was lost while in use.
        public static let connection = Kind(.connection)
        /// The server rejected a statement.
        public static let query = Kind(.query)
        /// A value could not be sent (for example a string holding a NUL byte).
        public static let encoding = Kind(.encoding)
        /// A result value could not be decoded as the requested Swift type.
        public static let decoding = Kind(.decoding)
        /// A COPY failed on the client side (the protocol, not the data).
        public static let copy = Kind(.copy)
        /// A transaction could not be committed (it had failed earlier and was rolled back).
        public static let transaction = Kind(.transaction)
        /// No pooled connection became free within the lease timeout.
        public static let poolTimeout = Kind(.poolTimeout)
        /// The pool was closed.
        public static let poolClosed = Kind(.poolClosed)

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    /// The SQLSTATE the server sent, if any.
    public var sqlState: SQLState?
    /// ERROR, FATAL, PANIC (localized as the server sends it), if known.
    public var severity: String?
    /// The primary message.
    public var message: String
    public var detail: String?
    public var hint: String?
    /// The constraint the error is about (for example the unique index of a unique violation).
    public var constraint: String?
    public var table: String?
    public var column: String?
    /// The SQL text of the statement, with `$n` placeholders, never the values.
    public var sql: String?

    public init(
        kind: Kind, message: String, sqlState: SQLState? = nil, severity: String? = nil,
        detail: String? = nil, hint: String? = nil, constraint: String? = nil,
        table: String? = nil, column: String? = nil, sql: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.severity = severity
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.table = table
        self.column = column
        self.sql = sql
    }

    /// True when the connection is gone or the server is shutting down or not yet accepting
    /// connections: an outage, not a bad statement. Pools discard the connection.
    public var isConnectionError: Bool {
        kind == .connection || (sqlState?.meansConnectionLost ?? false)
    }

    public var description: String {
        var text = "PostgreSQL \(kind) error"
        if let sqlState { text += " \(sqlState)" }
        return text + ": \(message)"
    }

    public var debugDescription: String {
        var text = description
        if let detail { text += "; detail: \(detail)" }
        if let hint { text += "; hint: \(hint)" }
        if let constraint { text += "; constraint: \(constraint)" }
        if let table { text += "; table: \(table)" }
        if let column { text += "; column: \(column)" }
        if let sql { text += "; SQL: \(sql)" }
        return text
    }
}
