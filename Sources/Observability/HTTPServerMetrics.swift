/// The OpenTelemetry HTTP server duration metric, `http.server.request.duration` in seconds, exported
/// as `http_server_request_duration_seconds` with the labels `http_request_method`, `http_route` and
/// `http_response_status_code`.
///
/// The route is the template the router matched (`/v1/menus/{element_type}`), never the raw path, and
/// unknown methods count as `_OTHER`, so the number of series stays bounded.
public struct HTTPServerMetrics: Sendable {
    public static let name = MetricName.prometheus("http.server.request.duration", unit: "s")
    private static let knownMethods: Set<String> =
        ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    private let registry: MetricsRegistry

    public init(registry: MetricsRegistry) {
        self.registry = registry
    }

    /// Records one request that took `duration`.
    public func record(method: String, route: String, status: Int, duration: Duration) {
        histogram(method: method, route: route, status: status).observe(duration)
    }

    /// The series for one method, route template and status, to keep when they are known in advance.
    public func histogram(method: String, route: String, status: Int) -> Histogram {
        let method = Self.knownMethods.contains(method) ? method : "_OTHER"
        return registry.histogram(
            Self.name, help: "Duration of HTTP server requests.",
            labels: ["http_request_method": method, "http_route": route, "http_response_status_code": String(status)])
    }
}
