extension HTTPResponse {
    /// The one answer to a request that no route takes, for every handler that routes: 404 for an
    /// unknown path (`allowed` nil), 405 with `Allow` for a known path and another method
    /// (`allowed`: the methods the path takes), both in the `{"error", "message"}` shape. The
    /// method and path are echoed cut short (20 and 200 characters), so a huge request line cannot
    /// make a huge error body.
    public static func unrouted(_ request: HTTPRequest, allowed: [String]?) -> HTTPResponse {
        guard let allowed else {
            return .error(.notFound, message: "no route for \(request.path.prefix(200))")
        }
        let allow = allowed.joined(separator: ", ")
        return .error(.methodNotAllowed,
                      message: "\(request.method.prefix(20)) is not allowed here; allowed: \(allow)",
                      headers: ["Allow": allow])
    }
}
