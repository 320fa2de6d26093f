/// Every code the API puts in an error body (`{"error": code, "message": ...}`), in one place, each
/// with the HTTP status it is answered with and a default message. The codes are a contract with
/// clients (the client library, web pages, scripts match on them; docs/api.md lists them), so a
/// code is never renamed and a new one is added here first.
///
/// It lives in the HTTP layer because that layer renders the error shape and answers the first
/// few itself (framing, body caps, connection limits, routing); the rest are the daemon's
/// (`Ingest`). The batch errors of `Events` (`invalid_json`, `invalid_batch`, `too_many_events`)
/// carry their code and status from that pure module and are matched to the cases here.
public enum APIErrorCode: String, Sendable, CaseIterable {
    // The HTTP server's own answers.
    case invalidHeader = "invalid_header"
    case invalidHost = "invalid_host"
    case ambiguousFraming = "ambiguous_framing"
    case unsupportedTransferEncoding = "unsupported_transfer_encoding"
    case invalidContentLength = "invalid_content_length"
    case payloadTooLarge = "payload_too_large"
    case tooManyConnections = "too_many_connections"
    case serverBusy = "server_busy"
    case internalError = "internal_error"
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    // Keys, admin tokens and origins.
    case missingKey = "missing_key"
    case unknownKey = "unknown_key"
    case revokedKey = "revoked_key"
    case wrongKeyKind = "wrong_key_kind"
    case keyLookupsThrottled = "key_lookups_throttled"
    case missingToken = "missing_token"
    case unknownToken = "unknown_token"
    case revokedToken = "revoked_token"
    case tokenLookupsThrottled = "token_lookups_throttled"
    case originNotAllowed = "origin_not_allowed"
    case rateLimited = "rate_limited"
    // Bodies.
    case unsupportedMediaType = "unsupported_media_type"
    case unsupportedContentEncoding = "unsupported_content_encoding"
    case invalidGzip = "invalid_gzip"
    case invalidJSON = "invalid_json"
    case invalidBatch = "invalid_batch"
    case tooManyEvents = "too_many_events"
    // The database.
    case databaseUnavailable = "database_unavailable"
    // Menus and the admin API.
    case unknownElementType = "unknown_element_type"
    case invalidQuery = "invalid_query"
    case unknownApp = "unknown_app"
    case unknownProposal = "unknown_proposal"
    case unknownRollout = "unknown_rollout"
    case proposalConflict = "proposal_conflict"
    case rollbackRefused = "rollback_refused"
    case rolloutConflict = "rollout_conflict"
    case invalidDecision = "invalid_decision"
    case invalidRollback = "invalid_rollback"

    /// The code as the body carries it.
    public var code: String { rawValue }

    /// The HTTP status the code is answered with.
    public var status: Int {
        switch self {
        case .invalidHeader, .invalidHost, .ambiguousFraming, .invalidContentLength, .invalidGzip, .invalidJSON,
             .invalidBatch, .invalidQuery, .invalidDecision, .invalidRollback:
            400
        case .missingKey, .unknownKey, .wrongKeyKind, .missingToken, .unknownToken: 401
        case .revokedKey, .revokedToken, .originNotAllowed: 403
        case .notFound, .unknownElementType, .unknownApp, .unknownProposal, .unknownRollout: 404
        case .methodNotAllowed: 405
        case .proposalConflict, .rollbackRefused, .rolloutConflict: 409
        case .payloadTooLarge, .tooManyEvents: 413
        case .unsupportedMediaType, .unsupportedContentEncoding: 415
        case .tooManyConnections, .rateLimited: 429
        case .internalError: 500
        case .unsupportedTransferEncoding: 501
        case .serverBusy, .keyLookupsThrottled, .tokenLookupsThrottled, .databaseUnavailable: 503
        }
    }

    /// The message sent when the answer has nothing more specific to say.
    public var defaultMessage: String {
        switch self {
        case .invalidHeader: "a header is not valid"
        case .invalidHost: "an HTTP/1.1 request needs exactly one Host header"
        case .ambiguousFraming: "the request's body is delimited more than one way"
        case .unsupportedTransferEncoding: "the only Transfer-Encoding accepted is a single chunked"
        case .invalidContentLength: "Content-Length must be a single non-negative integer"
        case .payloadTooLarge: "the request body is too large"
        case .tooManyConnections: "too many requests at once from this address; retry later"
        case .serverBusy: "too many request bodies in flight; retry later"
        case .internalError: "the server failed to process the request; it was logged"
        case .notFound: "no route for this path"
        case .methodNotAllowed: "the method is not allowed here"
        case .missingKey: "send the API key as Authorization: Bearer <key>"
        case .unknownKey: "the API key is not known"
        case .revokedKey: "the API key has been revoked"
        case .wrongKeyKind: "the key is of the other kind"
        case .keyLookupsThrottled: "too many unknown API keys tried lately; retry later"
        case .missingToken: "send an admin token as Authorization: Bearer <token> (menurank tokens create NAME)"
        case .unknownToken: "the admin token is not known"
        case .revokedToken: "the admin token has been revoked"
        case .tokenLookupsThrottled: "too many unknown admin tokens tried lately; retry later"
        case .originNotAllowed: "the origin is not allowed (menurank apps set APP --allowed-origin URL)"
        case .rateLimited: "too many requests for this key; retry later"
        case .unsupportedMediaType: "Content-Type must be application/json"
        case .unsupportedContentEncoding: "Content-Encoding must be gzip or absent"
        case .invalidGzip: "the body is not valid gzip data"
        case .invalidJSON: "the body is not JSON"
        case .invalidBatch: "the body is not a batch of events"
        case .tooManyEvents: "the batch has more events than allowed; split it"
        case .databaseUnavailable: "the database is unavailable; retry later"
        case .unknownElementType: "the app has no layout for this element type"
        case .invalidQuery: "the query parameters are not valid"
        case .unknownApp: "no such app"
        case .unknownProposal: "no such proposal"
        case .unknownRollout: "no such rollout"
        case .proposalConflict: "the proposal is not pending"
        case .rollbackRefused: "the layout cannot be rolled back"
        case .rolloutConflict: "the rollout is not running"
        case .invalidDecision: "the decision is not valid"
        case .invalidRollback: "the rollback request is not valid"
        }
    }
}

extension HTTPResponse {
    /// The error body of `code` with its status: `message` when given, else the code's default.
    public static func error(_ code: APIErrorCode, message: String? = nil,
                             headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        error(status: code.status, code: code.code, message: message ?? code.defaultMessage, headers: headers)
    }
}
