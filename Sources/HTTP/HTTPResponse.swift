import Escaping

/// A response produced by an ``HTTPHandler``. The server adds `Content-Length` itself (a
/// `Content-Length` or `Transfer-Encoding` set here is ignored) and `X-Request-Id` when absent.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body given as text, with `Content-Type: application/json`.
    public static func json(status: Int = 200, body: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var all = headers
        all.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: all, body: Array(body.utf8))
    }

    /// A plain text body, with `Content-Type: text/plain; charset=utf-8`.
    public static func text(status: Int = 200, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var all = headers
        all.set("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: all, body: Array(text.utf8))
    }

    /// The JSON error shape every whole-request error uses: `{"error": code, "message": message}`.
    /// menurank's own answers name their code through ``APIErrorCode`` (`error(_:message:headers:)`);
    /// this form is for servers that speak the same shape with other codes (the client tests').
    public static func error(status: Int, code: String, message: String,
                             headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        let body = "{\"error\":\(JSONText.quoted(code)),\"message\":\(JSONText.quoted(message))}"
        return json(status: status, body: body, headers: headers)
    }
}
