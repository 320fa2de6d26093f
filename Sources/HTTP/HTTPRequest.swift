/// A complete HTTP request as the server hands it to an ``HTTPHandler``: the body has been received
/// in full (and is within the server's body cap).
public struct HTTPRequest: Sendable {
    /// The request method as sent (`GET`, `POST`, ...).
    public var method: String
    /// The path as sent, still percent-encoded, without the query string (`/v1/menus/mail.message`).
    public var path: String
    /// Query parameters in order, names and values percent-decoded (`+` is a space).
    public var queryParameters: [(name: String, value: String)]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The `X-Request-Id` the client sent when it is valid (1-128 of `A-Z a-z 0-9 - _ . :`),
    /// otherwise a fresh random id of 32 hex digits.
    public var requestID: String
    /// The client's IP address: the connection's peer, or, when the peer is a trusted proxy, the
    /// address it forwarded (``TrustedProxies``). Nil for a request not received by the server.
    public var clientAddress: String?

    public init(method: String, path: String, queryParameters: [(name: String, value: String)] = [],
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], requestID: String? = nil) {
        self.method = method
        self.path = path
        self.queryParameters = queryParameters
        self.headers = headers
        self.body = body
        self.requestID = requestID.flatMap { RequestID.isValid($0) ? $0 : nil } ?? RequestID.generate()
    }

    /// The first value of the header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// The first value of the query parameter called `name` (case-sensitive).
    public func query(_ name: String) -> String? {
        queryParameters.first { $0.name == name }?.value
    }
}
