import HTTP
import JSON
import Storage

/// A whole-request error of the API: a code (with its status, `APIErrorCode`) and a message,
/// rendered as `{"error": code, "message": message}` (plus `Retry-After` for 429 and 503).
struct IngestError: Error, Sendable {
    var code: APIErrorCode
    var message: String
    var retryAfter: Int?
    /// A prebuilt body (a decoder error with its position), used instead of code and message.
    var body: [UInt8]?
    /// What caused a 5xx, in full (the storage error with its SQLSTATE, detail and SQL): for the
    /// one log line `IngestHandler` writes about the response, never sent to the client.
    var cause: String?

    /// `message` nil: the code's default message.
    init(_ code: APIErrorCode, message: String? = nil, retryAfter: Int? = nil, body: [UInt8]? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
        self.retryAfter = retryAfter
        self.body = body
    }

    var response: HTTPResponse {
        var headers = HTTPHeaders()
        if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
        if let body {
            headers.set("Content-Type", "application/json")
            return HTTPResponse(status: code.status, headers: headers, body: body)
        }
        return .error(code, message: message, headers: headers)
    }

    static func unavailable(retryAfter: Int) -> IngestError {
        IngestError(.databaseUnavailable, retryAfter: retryAfter)
    }

    /// 401 for a key that is not known: never made, or gone with its app (`apps delete`).
    static let unknownKey = IngestError(.unknownKey)

    /// 503 with `Retry-After` when the bucket of lookups of secrets never seen to exist is empty:
    /// `code` `key_lookups_throttled` (API keys) or `token_lookups_throttled` (admin tokens).
    static func lookupsThrottled(code: APIErrorCode, of secrets: String, retryAfter wait: Int) -> IngestError {
        var throttled = IngestError(code,
                                    message: "too many unknown \(secrets) tried lately; retry after \(wait) s", retryAfter: wait)
        throttled.cause = "lookups of unknown \(secrets) are throttled (a flood of made-up ones?)"
        return throttled
    }

    static let internalError = IngestError(.internalError)

    /// A storage failure as the client sees it: 503 `database_unavailable` with `Retry-After` when
    /// a retry can succeed (PostgreSQL unreachable, short of resources, read-only, starting up,
    /// shutting down, in recovery; the writer stopping), else a 500. The client reads neither the
    /// reason nor the server's text; the cause goes to the log line.
    static func failure(_ error: StorageError, retryAfter: Int) -> IngestError {
        var failure = error.kind == .unavailable || error.kind == .shuttingDown
            ? IngestError.unavailable(retryAfter: retryAfter) : internalError
        failure.cause = error.debugDescription
        return failure
    }

    /// `/readyz` while the database cannot take writes: 503 with `Retry-After` and why, as
    /// `{"status": "unavailable", "error": "database_unavailable", "reason": ..., "message": ...}`
    /// (the reason is a stable word such as `disk_full`, `read_only`, `too_many_connections`,
    /// `cannot_connect_now` or `unreachable`; the message is menurank's, never the server's text).
    static func notReady(_ problem: StorageError, retryAfter: Int) -> IngestError {
        let reason = problem.reason ?? .unreachable
        let message = StorageError.message(for: reason)
        let body = JSONValue.object([
            ("status", .string("unavailable")), ("error", .string(APIErrorCode.databaseUnavailable.code)),
            ("reason", .string(reason.word)), ("message", .string(message)),
        ]).jsonText
        var error = IngestError(.databaseUnavailable, message: message, retryAfter: retryAfter,
                                body: Array(body.utf8))
        error.cause = problem.debugDescription
        return error
    }

    /// A failure that is not a `StorageError` (a bug): a 500 with its cause for the log.
    static func failure(unexpected error: any Error) -> IngestError {
        var failure = internalError
        failure.cause = String(reflecting: error)
        return failure
    }
}
