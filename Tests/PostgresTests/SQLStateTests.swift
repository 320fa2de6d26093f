import Testing

@testable import Postgres

@Suite struct SQLStateTests {
    @Test func classPatternsMatchEveryCodeOfTheClass() {
        #expect(SQLState.integrityConstraintViolation ~= SQLState.uniqueViolation)
        #expect(SQLState.integrityConstraintViolation ~= SQLState("23P01"))
        #expect(!(SQLState.integrityConstraintViolation ~= SQLState.undefinedTable))
        #expect(SQLState.uniqueViolation ~= SQLState.uniqueViolation)
        #expect(!(SQLState.uniqueViolation ~= SQLState.foreignKeyViolation))
        #expect(SQLState.uniqueViolation.errorClass == .integrityConstraintViolation)
    }

    @Test func unknownCodesAreKept() {
        let state = SQLState("ZZ123")
        #expect(state.code == "ZZ123")
        #expect(state.description == "ZZ123")
    }

    @Test func catchMatchesByClass() {
        let error = PostgresError(kind: .query, message: "duplicate", sqlState: .uniqueViolation)
        var caught = ""
        do {
            throw error
        } catch SQLState.foreignKeyViolation {
            caught = "fk"
        } catch SQLState.integrityConstraintViolation {
            caught = "class 23"
        } catch {
            caught = "other"
        }
        #expect(caught == "class 23")
    }

    @Test func connectionErrorsAreToldApartFromBadStatements() {
        #expect(PostgresError(kind: .query, message: "", sqlState: .adminShutdown).isConnectionError)
        #expect(PostgresError(kind: .query, message: "", sqlState: .connectionFailure).isConnectionError)
        #expect(PostgresError(kind: .connection, message: "refused").isConnectionError)
        #expect(!PostgresError(kind: .query, message: "", sqlState: .syntaxError).isConnectionError)
    }

    @Test func debugDescriptionShowsSQLButNeverBoundValuesAndDescriptionNeitherSQLNorDetail() {
        let query: PostgresQuery = "select * from t where secret = \("hunter2") and \(identifier: "a\"b") = 1"
        #expect(query.sql == #"select * from t where secret = $1 and "a""b" = 1"#)
        let error = PostgresError(kind: .query, message: "boom", sqlState: .syntaxError, detail: "Key (x)=(7) exists",
                                  sql: query.sql)
        #expect(!error.debugDescription.contains("hunter2"))
        #expect(error.debugDescription.contains("42601"))
        #expect(error.debugDescription.contains("secret = $1"))
        #expect(error.debugDescription.contains("Key (x)=(7)"))
        #expect(error.description == "PostgreSQL query error 42601: boom")
    }

    @Test func appendedQueriesRenumberTheirBinds() {
        var query: PostgresQuery = "select \(1), \(2)"
        query.append(" union all select \(3), \(4)")
        #expect(query.sql == "select $1, $2 union all select $3, $4")
        #expect(query.binds.count == 4)
        let nested: PostgresQuery = "select \(0) where x in (\(query))"
        #expect(nested.sql == "select $1 where x in (select $2, $3 union all select $4, $5)")
    }
}
