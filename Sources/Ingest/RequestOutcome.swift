import HTTP

/// A response with what the request log line and the metrics need to know about it.
struct RequestOutcome: Sendable {
    var response: HTTPResponse
    /// Events in the request (0 for other routes).
    var events: Int = 0
    var accepted: Int = 0
    var duplicates: Int = 0
    var rejected: Int = 0
    /// The app the key belonged to, when authenticated.
    var app: String?
    /// What caused a 5xx (logged once by `IngestHandler` with the request id; never sent).
    var failure: String?

    init(_ response: HTTPResponse) {
        self.response = response
    }

    init(_ error: IngestError) {
        response = error.response
        failure = error.cause
    }
}
