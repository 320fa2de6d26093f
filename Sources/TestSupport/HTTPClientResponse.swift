public import HTTP

/// A response as ``HTTPClient`` read it.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    public var reason: String
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, reason: String = "", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// The first value of the header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8 (invalid sequences replaced).
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }
}
