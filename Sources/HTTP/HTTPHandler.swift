/// Answers requests. The server calls `handle` once the whole body has arrived, on the thread of
/// the request's connection; it may block (a database commit, say) without stalling other
/// connections.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) -> HTTPResponse
}

/// An ``HTTPHandler`` made from a closure.
public struct ClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        body(request)
    }
}
