/// Answers requests. The server calls `handle` once the whole body has arrived, on the thread of
/// the request's connection; it may block (a database commit, say) without stalling other
/// connections.
public protocol HTTPHandler: Sendable {
    /// Called once the request head is complete, before any of the body is read (the request's
    /// `body` is empty here). A response returned is sent instead of reading the body: the body
    /// is never buffered (a small one is read and dropped so that a client that sends before it
    /// reads still gets the answer, a large one is not read and the connection closes). Nil lets
    /// the body be read and `handle` be called. The default admits every request.
    func admit(_ head: HTTPRequest) -> HTTPResponse?

    func handle(_ request: HTTPRequest) -> HTTPResponse

    /// Told of every answer the server decides itself, without `admit` or `handle` deciding it: a
    /// bad framing (400/501), a body over the cap (413), the in-flight body budget exhausted (503
    /// `server_busy`), and the last-resort 500 sent when a response cannot go out as built.
    /// `head` is the request without its body; `cause` says why, for the log. So a handler can
    /// count and log every answer, 5xx included, in one place. The default does nothing.
    func serverAnswered(_ head: HTTPRequest, with response: HTTPResponse, cause: String)

    /// The answer the server decided (as told to ``serverAnswered(_:with:cause:)``) as it goes
    /// out: a handler may add headers (CORS ones, say). The default sends it unchanged.
    func amend(_ response: HTTPResponse, answering head: HTTPRequest) -> HTTPResponse
}

extension HTTPHandler {
    public func admit(_ head: HTTPRequest) -> HTTPResponse? { nil }

    public func serverAnswered(_ head: HTTPRequest, with response: HTTPResponse, cause: String) {}

    public func amend(_ response: HTTPResponse, answering head: HTTPRequest) -> HTTPResponse { response }
}

/// An ``HTTPHandler`` made from a closure.
public struct ClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse
    private let admission: @Sendable (HTTPRequest) -> HTTPResponse?

    public init(admit: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
                _ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
        admission = admit
    }

    public func admit(_ head: HTTPRequest) -> HTTPResponse? {
        admission(head)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        body(request)
    }
}
