import HTTP
import Storage

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
    /// The origins the key's app allows (sql/0016), when authenticated: which `Origin` the answer
    /// may carry CORS headers for.
    var appOrigins: [String]?
    /// What caused a 5xx (logged once by `IngestHandler` with the request id; never sent).
    var failure: String?

    init(_ response: HTTPResponse) {
        self.response = response
    }

    init(_ error: IngestError) {
        response = error.response
        failure = error.cause
    }

    /// Notes the app of the request's key: its name for the log, its origins for CORS.
    mutating func grant(_ grant: KeyGrant) {
        app = grant.appName
        appOrigins = grant.allowedOrigins
    }
}
