import Postgres
import Storage
import Testing

/// What a retry can resolve is `.unavailable` with a reason; the description a user reads holds
/// neither the SQL nor the server's detail, the debug description (logs, `--verbose`) holds both.
@Suite struct StorageErrorTests {
    @Test(arguments: [
        ("53100", "disk_full"), ("53200", "out_of_memory"), ("53300", "too_many_connections"),
        ("53000", "insufficient_resources"), ("53400", "insufficient_resources"), ("25006", "read_only"),
        ("57P03", "cannot_connect_now"), ("40P01", "conflict"), ("40001", "conflict"), ("57P01", "unreachable"),
        ("08006", "unreachable"),
    ])
    func retryableStatesAreUnavailableWithTheirReason(state: String, reason: String) {
        let error = StorageError(PostgresError(kind: .query, message: "primary text", sqlState: SQLState(state),
                                               detail: "Key (id)=(secret) exists", sql: "INSERT INTO events VALUES ($1)"))
        #expect(error.kind == .unavailable)
        #expect(error.reason?.word == reason)
        #expect(!error.description.contains("secret") && !error.description.contains("INSERT"), "\(error)")
        #expect(error.debugDescription.contains("Key (id)=(secret)") && error.debugDescription.contains("INSERT INTO events"))
        #expect(error.debugDescription.contains(state) && error.debugDescription.contains("[\(reason)]"))
    }

    @Test func otherStatesAreDatabaseErrorsWithThePrimaryMessageOnly() {
        let error = StorageError(PostgresError(kind: .query, message: "column \"x\" does not exist", sqlState: "42703",
                                               hint: "a hint", sql: "SELECT x FROM t"))
        #expect(error.kind == .database && error.reason == nil)
        #expect(error.description == "database error: column \"x\" does not exist")
        #expect(error.debugDescription.contains("SELECT x FROM t") && error.debugDescription.contains("a hint"))
    }

    /// A database that was never migrated: the error says what to do.
    @Test func aMissingTableSaysRunMigrate() {
        let error = StorageError(PostgresError(kind: .query, message: "relation \"apps\" does not exist", sqlState: "42P01",
                                               hint: "a hint", sql: "SELECT * FROM apps"))
        #expect(error.kind == .database && error.reason == nil)
        #expect(error.description == "database error: relation \"apps\" does not exist: the database has no menurank schema "
            + "or an older one; run menurank migrate")
        #expect(!error.description.contains("SELECT") && error.debugDescription.contains("SELECT * FROM apps"))
    }

    /// libpq refuses a connection without a SQLSTATE: its text says why.
    @Test(arguments: [
        ("connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  sorry, too many clients already", "too_many_connections"),
        ("connection to server failed: FATAL:  too many connections for role \"app\"", "too_many_connections"),
        ("connection to server failed: FATAL:  remaining connection slots are reserved for non-replication superuser connections",
         "too_many_connections"),
        ("connection to server failed: FATAL:  the database system is shutting down", "cannot_connect_now"),
        ("connection to server failed: FATAL:  the database system is starting up", "cannot_connect_now"),
        ("connection to server failed: FATAL:  the database system is not yet accepting connections", "cannot_connect_now"),
        ("connection to server at \"127.0.0.1\", port 1 failed: Connection refused", "unreachable"),
    ])
    func refusedConnectionsAreUnavailableWithTheReasonTheirTextGives(message: String, reason: String) {
        let error = StorageError(PostgresError(kind: .connection, message: message))
        #expect(error.kind == .unavailable && error.reason?.word == reason)
    }

    @Test func poolTimeoutsAndClosedPoolsAreUnreachable() {
        for kind in [PostgresError.Kind.poolTimeout, .poolClosed] {
            let error = StorageError(PostgresError(kind: kind, message: "no connection"))
            #expect(error.kind == .unavailable && error.reason == .unreachable)
        }
    }
}
