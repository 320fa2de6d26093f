/// An ``HTTPHandler`` that dispatches through a ``Router`` and answers unknown paths with 404 and
/// known paths with the wrong method with 405 plus `Allow`, both as `{"error", "message"}` JSON.
public struct RoutingHandler: HTTPHandler {
    public typealias Action = @Sendable (HTTPRequest, RouteParameters) -> HTTPResponse

    public private(set) var router = Router<Action>()

    public init() {}

    /// Registers `action` for `method` on `template` (see ``Router/add(_:_:_:)``).
    public mutating func add(_ method: String, _ template: String, _ action: @escaping Action) {
        router.add(method, template, action)
    }

    /// Routes `request` and returns the response together with the matched template (nil when no
    /// template matched the path), for callers that tag metrics by route.
    public func route(_ request: HTTPRequest) -> (template: String?, response: HTTPResponse) {
        switch router.match(method: request.method, path: request.path) {
        case let .found(action, parameters):
            return (parameters.template, action(request, parameters))
        case .notFound:
            return (nil, .unrouted(request, allowed: nil))
        case let .methodNotAllowed(template, allowed):
            return (template, .unrouted(request, allowed: allowed))
        }
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        route(request).response
    }
}
