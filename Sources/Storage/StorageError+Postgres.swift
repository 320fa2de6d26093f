public import Postgres

extension StorageError {
    /// Wraps a PostgreSQL error. What a retry can resolve becomes `.unavailable` with its reason,
    /// so a client is told to retry (503 with Retry-After) rather than given a 500: insufficient
    /// resources (class 53: disk full, out of memory, too many connections), a read-only
    /// transaction (25006), a server that cannot take connections now (57P03: starting, shutting
    /// down, recovery), a lost connection or one that cannot be made, a closed or exhausted pool,
    /// and a conflict between writers (deadlock, serialization failure). Anything else is
    /// `.database`. The message is the server's primary message only; its detail, hint and the
    /// SQL stay in `underlying`. For a connection that could not be made, libpq's first line
    /// (host, port, and the refusal) follows the message: it is what an operator needs.
    public init(_ error: PostgresError) {
        if let reason = Self.reason(of: error) {
            var message = Self.message(for: reason)
            // A refused connection: libpq's own first line says where and why.
            if error.kind == .connection, let line = error.message.split(separator: "\n").first {
                message = (reason == .unreachable ? "cannot connect to PostgreSQL" : message) + ": " + line
            }
            self.init(.unavailable, message, reason: reason, underlying: error)
        } else if error.sqlState == SQLState.undefinedTable || error.sqlState == SQLState.undefinedFunction {
            // A database that was never migrated (or is older than this binary): say what to do.
            self.init(.database, "\(error.message): the database has no menurank schema or an older one; "
                + "run menurank migrate", underlying: error)
        } else {
            self.init(.database, error.message, underlying: error)
        }
    }

    /// Runs `body`, turning what it throws into a `StorageError`: the boundary every public
    /// function of this module passes its errors through.
    static func mapping<T>(_ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch let error as PostgresError {
            throw StorageError(error)
        } catch {
            throw StorageError(.database, "\(error)", underlying: error)
        }
    }

    /// What a user reads about each reason (with a retry implied).
    public static func message(for reason: Reason) -> String {
        switch reason {
        case .diskFull: "the database's disk is full"
        case .outOfMemory: "the database is out of memory"
        case .tooManyConnections: "the database has too many connections"
        case .insufficientResources: "the database is short of resources"
        case .readOnly: "the database is read-only"
        case .cannotConnectNow: "the database is starting up, shutting down or in recovery"
        case .conflict: "a conflicting write"
        case .partitionMissing: "the day's partition is not created yet"
        default: "PostgreSQL is unavailable"
        }
    }

    /// The reason a retry can help, or nil when it cannot.
    static func reason(of error: PostgresError) -> Reason? {
        if let state = error.sqlState {
            switch state {
            case SQLState.diskFull: return .diskFull
            case SQLState.outOfMemory: return .outOfMemory
            case SQLState.tooManyConnections: return .tooManyConnections
            case SQLState.insufficientResources: return .insufficientResources
            case SQLState.readOnlySQLTransaction: return .readOnly
            case SQLState.cannotConnectNow: return .cannotConnectNow
            case SQLState.deadlockDetected, SQLState.serializationFailure: return .conflict
            default: break
            }
        }
        if error.kind == .connection { return connectionReason(error.message) }
        if error.isConnectionError || error.kind == .poolTimeout || error.kind == .poolClosed { return .unreachable }
        return nil
    }

    /// libpq reports a refused connection without a SQLSTATE; the server's FATAL message says
    /// why (in English unless lc_messages says otherwise; anything else is `.unreachable`).
    static func connectionReason(_ message: String) -> Reason {
        let text = message.lowercased()
        if text.contains("too many clients") || text.contains("too many connections")
            || text.contains("remaining connection slots")
        {
            return .tooManyConnections
        }
        if text.contains("the database system is starting up") || text.contains("the database system is shutting down")
            || text.contains("the database system is in recovery mode") || text.contains("not yet accepting connections")
            || text.contains("not accepting connections")
        {
            return .cannotConnectNow
        }
        if text.contains("no space left on device") { return .diskFull }
        if text.contains("out of memory") { return .outOfMemory }
        return .unreachable
    }
}
