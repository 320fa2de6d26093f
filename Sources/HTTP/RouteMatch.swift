/// The outcome of looking a request up in a ``Router``.
public enum RouteMatch<Target: Sendable>: Sendable {
    /// A route matched the path and method.
    case found(Target, RouteParameters)
    /// No route matches the path: answer 404.
    case notFound
    /// A route matches the path but not the method: answer 405 with `Allow: allowed` (sorted,
    /// `HEAD` included wherever `GET` is). `template` is the first matching template.
    case methodNotAllowed(template: String, allowed: [String])
}
