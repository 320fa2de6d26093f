/// A PostgreSQL SQLSTATE error code such as `"23505"`.
///
/// Codes the server sends that have no constant here are kept exactly as received.
/// A code ending in `000` names a whole class, and pattern matching with `~=` matches
/// every code of that class, so this works:
///
/// ```swift
/// do { try conn.execute("insert ...") }
/// catch SQLState.integrityConstraintViolation { /* any 23xxx */ }
/// ```
public struct SQLState: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The five-character code.
    public let code: String

    /// Wraps a code as received from the server.
    public init(_ code: String) { self.code = code }

    public init(stringLiteral value: String) { self.code = value }

    public var description: String { code }

    /// The class of this code (`"23505"` → `"23000"`).
    public var errorClass: SQLState {
        SQLState(String(code.prefix(2)) + "000")
    }

    /// True when this code names a whole class (ends in `000`).
    public var isClass: Bool { code.count == 5 && code.hasSuffix("000") }

    /// A class pattern matches every code of its class; any other pattern matches only itself.
    public static func ~= (pattern: SQLState, value: SQLState) -> Bool {
        if pattern.isClass { return value.code.prefix(2) == pattern.code.prefix(2) }
        return pattern == value
    }

    /// Matches a thrown error whose `PostgresError.sqlState` matches the pattern.
    public static func ~= (pattern: SQLState, error: any Error) -> Bool {
        guard let error = error as? PostgresError, let state = error.sqlState else { return false }
        return pattern ~= state
    }
}

extension SQLState {
    // Class 08: connection exception.
    public static let connectionException: SQLState = "08000"
    public static let connectionDoesNotExist: SQLState = "08003"
    public static let connectionFailure: SQLState = "08006"
    public static let sqlClientUnableToEstablishConnection: SQLState = "08001"
    // Class 22: data exception.
    public static let dataException: SQLState = "22000"
    public static let stringDataRightTruncation: SQLState = "22001"
    public static let numericValueOutOfRange: SQLState = "22003"
    public static let invalidDatetimeFormat: SQLState = "22007"
    public static let datetimeFieldOverflow: SQLState = "22008"
    public static let characterNotInRepertoire: SQLState = "22021"
    public static let invalidParameterValue: SQLState = "22023"
    public static let invalidTextRepresentation: SQLState = "22P02"
    public static let untranslatableCharacter: SQLState = "22P05"
    // Class 23: integrity constraint violation.
    public static let integrityConstraintViolation: SQLState = "23000"
    public static let restrictViolation: SQLState = "23001"
    public static let notNullViolation: SQLState = "23502"
    public static let foreignKeyViolation: SQLState = "23503"
    public static let uniqueViolation: SQLState = "23505"
    public static let checkViolation: SQLState = "23514"
    public static let exclusionViolation: SQLState = "23P01"
    // Class 25: invalid transaction state.
    public static let invalidTransactionState: SQLState = "25000"
    public static let readOnlySQLTransaction: SQLState = "25006"
    public static let inFailedSQLTransaction: SQLState = "25P02"
    // Class 3D, 3F: invalid catalog / schema name.
    public static let invalidCatalogName: SQLState = "3D000"
    public static let invalidSchemaName: SQLState = "3F000"
    // Class 40: transaction rollback.
    public static let transactionRollback: SQLState = "40000"
    public static let serializationFailure: SQLState = "40001"
    public static let deadlockDetected: SQLState = "40P01"
    // Class 42: syntax error or access rule violation.
    public static let syntaxErrorOrAccessRuleViolation: SQLState = "42000"
    public static let insufficientPrivilege: SQLState = "42501"
    public static let syntaxError: SQLState = "42601"
    public static let undefinedColumn: SQLState = "42703"
    public static let undefinedFunction: SQLState = "42883"
    public static let undefinedTable: SQLState = "42P01"
    public static let duplicateSchema: SQLState = "42P06"
    public static let duplicateTable: SQLState = "42P07"
    public static let duplicateObject: SQLState = "42710"
    // Class 53: insufficient resources.
    public static let insufficientResources: SQLState = "53000"
    public static let diskFull: SQLState = "53100"
    public static let outOfMemory: SQLState = "53200"
    public static let tooManyConnections: SQLState = "53300"
    // Class 55: object not in prerequisite state.
    public static let objectNotInPrerequisiteState: SQLState = "55000"
    public static let lockNotAvailable: SQLState = "55P03"
    // Class 57: operator intervention.
    public static let operatorIntervention: SQLState = "57000"
    public static let queryCanceled: SQLState = "57014"
    public static let adminShutdown: SQLState = "57P01"
    public static let crashShutdown: SQLState = "57P02"
    public static let cannotConnectNow: SQLState = "57P03"
    // Class XX: internal error.
    public static let internalError: SQLState = "XX000"

    /// True for codes that mean the connection is gone or unusable rather than that the
    /// statement was wrong: class 08 and the server shutting down or starting up (57P01-57P03).
    public var meansConnectionLost: Bool {
        SQLState.connectionException ~= self || self == .adminShutdown || self == .crashShutdown
            || self == .cannotConnectNow
    }
}
