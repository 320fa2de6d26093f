import HTTP

/// A whole-request error of the API: a status, a stable code and a message, rendered as
/// `{"error": code, "message": message}` (plus `Retry-After` for 429 and 503).
struct IngestError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var retryAfter: Int?
    /// A prebuilt body (a decoder error with its position), used instead of code and message.
    var body: [UInt8]?

    init(status: Int, code: String, message: String, retryAfter: Int? = nil, body: [UInt8]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.body = body
    }

    var response: HTTPResponse {
        var headers = HTTPHeaders()
        if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
        if let body {
            headers.set("Content-Type", "application/json")
            return HTTPResponse(status: status, headers: headers, body: body)
        }
        return .error(status: status, code: code, message: message, headers: headers)
    }

    static func unavailable(retryAfter: Int) -> IngestError {
        IngestError(status: 503, code: "database_unavailable",
                    message: "the database is unavailable; retry later", retryAfter: retryAfter)
    }

    static let internalError = IngestError(status: 500, code: "internal_error",
                                           message: "the server failed to process the request; it was logged")
}
