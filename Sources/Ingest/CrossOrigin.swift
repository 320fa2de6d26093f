import HTTP
import Storage

/// CORS for the two routes a web page calls, `POST /v1/events` and `GET /v1/menus[/TYPE]`, for the
/// origins each app allows (sql/0016, `menurank apps set APP --allowed-origin URL`).
///
/// - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) carries no key, so
///   it is answered for an origin that some app allows (``OriginDirectory``): 204 with the route's
///   one method, the request headers the clients send, and `Access-Control-Max-Age` of
///   ``maxAge`` (a removed origin stops working within that plus the key cache's period). Any
///   other origin gets 403 `origin_not_allowed` without CORS headers, which the browser reports
///   as a failed request before sending anything.
/// - A request with a key and an `Origin` of another host is refused (403 `origin_not_allowed`,
///   before its body is read) unless the key's own app allows that origin, so a page can never
///   use a key, even one it found, on behalf of an app that did not list it. The list comes with
///   the key from the key cache: no query of its own.
/// - Every answer of these routes to an allowed origin carries `Access-Control-Allow-Origin` (that
///   origin, never `*`), `Vary: Origin`, and `Access-Control-Expose-Headers: ETag, Retry-After`
///   (the two headers the clients read that CORS hides by default). An answer decided before the
///   key is known (401, 503) uses the union of the apps' lists.
/// - A request without `Origin` (every non-browser client), or with one of the daemon's own
///   host (a page the daemon serves itself), is answered exactly as before: no header added.
struct CrossOrigin: Sendable {
    /// What a route lets a page do.
    struct Route: Sendable {
        /// The route's template, for the request log and metrics.
        let template: String
        let method: String
        /// The request headers the clients send that are not CORS-safelisted.
        let headers: String
    }

    /// Seconds a browser may keep a preflight's answer (Chromium keeps at most 7200).
    static let maxAge = 600
    static let exposedHeaders = "ETag, Retry-After"

    let directory: OriginDirectory

    /// The CORS route `path` belongs to, or nil.
    static func route(for path: String) -> Route? {
        if path == IngestServer.eventsRoute {
            return Route(template: IngestServer.eventsRoute, method: "POST", headers: "Authorization, Content-Type")
        }
        if path == "/v1/menus" {
            return Route(template: path, method: "GET", headers: "Authorization, If-None-Match")
        }
        if path.hasPrefix("/v1/menus/"), path.utf8.count > "/v1/menus/".utf8.count {
            return Route(template: "/v1/menus/:element_type", method: "GET", headers: "Authorization, If-None-Match")
        }
        return nil
    }

    /// The answer to a CORS preflight of a CORS route, or nil when `request` is not one (it is then
    /// routed as before: an `OPTIONS` without these headers still gets 405).
    func preflight(_ request: HTTPRequest) -> (route: String, outcome: RequestOutcome)? {
        guard request.method == "OPTIONS", let origin = request.header("Origin"),
              request.header("Access-Control-Request-Method") != nil,
              let route = Self.route(for: request.path)
        else { return nil }
        var headers: HTTPHeaders = ["Vary": "Origin"]
        switch directory.allows(origin) {
        case .some(true):
            headers.set("Access-Control-Allow-Origin", origin)
            headers.set("Access-Control-Allow-Methods", route.method)
            headers.set("Access-Control-Allow-Headers", route.headers)
            headers.set("Access-Control-Max-Age", String(Self.maxAge))
            return (route.template, RequestOutcome(HTTPResponse(status: 204, headers: headers)))
        case .some(false):
            return (route.template, RequestOutcome(HTTPResponse.error(.originNotAllowed,
                                                                      message: "no app allows the origin \(origin.prefix(200)) (menurank apps set APP --allowed-origin URL)",
                                                                      headers: headers)))
        case .none:
            var unavailable = IngestError.unavailable(retryAfter: 2)
            unavailable.cause = "the allowed origins could not be read for a preflight"
            return (route.template, RequestOutcome(unavailable))
        }
    }

    /// 403 `origin_not_allowed` when `request` comes from a page of another origin that the key's
    /// app does not allow; nil otherwise (no `Origin`, the daemon's own host, or an allowed one).
    static func refusal(_ request: HTTPRequest, grant: KeyGrant) -> IngestError? {
        guard let origin = request.header("Origin"), !isSameHost(origin, request),
              !grant.allowedOrigins.contains(origin)
        else { return nil }
        return IngestError(.originNotAllowed,
                           message: "the app \(grant.appName) does not allow the origin \(origin.prefix(200)) (menurank apps set \(grant.appName) --allowed-origin URL)")
    }

    /// `response` with the CORS headers its request's origin is due: `appOrigins` is the key's
    /// app's list when the key is known. Unchanged without `Origin` or outside the CORS routes.
    func decorate(_ response: HTTPResponse, for request: HTTPRequest, appOrigins: [String]?) -> HTTPResponse {
        guard let origin = request.header("Origin"), Self.route(for: request.path) != nil,
              !Self.isSameHost(origin, request)
        else { return response }
        var response = response
        if !response.headers.contains("Vary") { response.headers.set("Vary", "Origin") }
        let allowed = appOrigins.map { $0.contains(origin) } ?? (directory.allows(origin) ?? false)
        guard allowed else { return response }
        response.headers.set("Access-Control-Allow-Origin", origin)
        response.headers.set("Access-Control-Expose-Headers", Self.exposedHeaders)
        return response
    }

    /// True when `origin`'s host and port are the request's `Host`: a page the daemon serves.
    static func isSameHost(_ origin: String, _ request: HTTPRequest) -> Bool {
        guard let host = request.header("Host"), let separator = origin.range(of: "://") else { return false }
        let authority = origin[separator.upperBound...]
        return authority.lowercased() == host.lowercased()
    }
}
