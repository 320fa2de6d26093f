import CLibPQ
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to PostgreSQL, owning a libpq `PGconn`.
///
/// Every call blocks the calling thread until the server answers; run it on a thread you own,
/// never on Swift's cooperative pool. A connection may move between threads but must be used
/// by one thread at a time (a `PostgresPool` lends each connection to one borrower at a time).
///
/// Each session runs with `TimeZone = 'UTC'`, `DateStyle = 'ISO, MDY'` and UTF-8 client
/// encoding, which the value decoders rely on. Server notices are discarded.
public final class PostgresConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// Set when the connection must not be reused (a ROLLBACK failed).
    var isPoisoned = false

    /// Connects and waits for the session to be ready.
    ///
    /// - Parameters:
    ///   - conninfo: a `postgresql://` URL or a `key=value` conninfo string. `nil` or empty
    ///     leaves everything to libpq's own `PG*` environment variables (`PGHOST`, `PGPORT`,
    ///     `PGUSER`, `PGDATABASE`, `PGPASSWORD`, …).
    ///   - parameters: extra libpq keywords that override the conninfo, for example
    ///     `["application_name": "menurank", "connect_timeout": "5",
    ///     "options": "-c search_path=s1,public"]`.
    /// - Throws: `PostgresError` of kind `.connection`.
    public init(_ conninfo: String? = nil, parameters: [String: String] = [:]) throws {
        var pairs: [(String, String)] = []
        if let conninfo, !conninfo.isEmpty { pairs.append(("dbname", conninfo)) }
        for key in parameters.keys.sorted() where key != "client_encoding" {
            pairs.append((key, parameters[key]!))
        }
        pairs.append(("client_encoding", "UTF8"))

        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        var keywordPointers = keywords.map { UnsafePointer<CChar>($0) } + [nil]
        var valuePointers = values.map { UnsafePointer<CChar>($0) } + [nil]
        guard let connection = PQconnectdbParams(&keywordPointers, &valuePointers, 1) else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmedMessage(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(kind: .connection, message: message)
        }
        handle = connection
        PQsetNoticeReceiver(handle, { _, _ in }, nil)
        try execute(unsafeSQL: "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'")
    }

    deinit {
        PQfinish(handle)
    }

    /// True while the connection is usable. Does not block: it reads what the server may have
    /// sent while the connection sat idle (a server shutting down sends an error and closes),
    /// so a pool can drop a connection that died while idle before lending it out.
    public var isAlive: Bool {
        if isPoisoned || PQstatus(handle) != CONNECTION_OK { return false }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        for _ in 0..<3 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { break }
            if PQconsumeInput(handle) == 0 { return false }
            _ = PQisBusy(handle)
            while let notify = PQnotifies(handle) { PQfreemem(notify) }
        }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The server's version as an integer, for example `150004` for 15.4.
    public var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// True while a transaction block is open (or failed and waiting for ROLLBACK).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    var transactionFailed: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    static func trimmedMessage(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown libpq error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Quotes an identifier with `PQescapeIdentifier`.
    func escapeIdentifier(_ name: String) throws -> String {
        if name.utf8.contains(0) {
            throw PostgresError(kind: .encoding, message: "an identifier contains a NUL byte")
        }
        let count = name.utf8.count
        guard let escaped = PQescapeIdentifier(handle, name, count) else {
            throw PostgresError(kind: .encoding, message: Self.trimmedMessage(PQerrorMessage(handle)))
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    /// Builds the error for a failed result (or a missing one) of `sql`.
    func error(from result: OpaquePointer?, sql: String?) -> PostgresError {
        func field(_ code: Int32) -> String? {
            guard let result, let value = PQresultErrorField(result, code) else { return nil }
            return String(cString: value)
        }
        let state = field(menurank_pg_diag_sqlstate()).map { SQLState($0) }
        let message: String =
            field(menurank_pg_diag_message_primary())
            ?? (result.map { Self.trimmedMessage(PQresultErrorMessage($0)) }).flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.trimmedMessage(PQerrorMessage(handle))
        let lost = PQstatus(handle) != CONNECTION_OK || (state?.meansConnectionLost ?? false)
        return PostgresError(
            kind: lost ? .connection : .query, message: message, sqlState: state,
            severity: field(menurank_pg_diag_severity()), detail: field(menurank_pg_diag_message_detail()),
            hint: field(menurank_pg_diag_message_hint()), constraint: field(menurank_pg_diag_constraint_name()),
            table: field(menurank_pg_diag_table_name()), column: field(menurank_pg_diag_column_name()), sql: sql)
    }
}

extension PostgresConnection {
    /// Usable as far as libpq knows, without reading the socket.
    var isUsable: Bool { !isPoisoned && PQstatus(handle) == CONNECTION_OK }
}
