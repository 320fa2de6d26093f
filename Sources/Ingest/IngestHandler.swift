import Foundation
import HTTP
import Observability

/// The daemon's HTTP handler: routes, then counts and logs every request (one line at info with the
/// request id, route template, status, events and duration).
struct IngestHandler: HTTPHandler {
    typealias Action = @Sendable (HTTPRequest, RouteParameters) -> RequestOutcome

    private var router = Router<Action>()
    let metrics: IngestMetrics
    let logger: Logger

    init(metrics: IngestMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    mutating func add(_ method: String, _ template: String, _ action: @escaping Action) {
        router.add(method, template, action)
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let route: String
        var outcome: RequestOutcome
        switch router.match(method: request.method, path: request.path) {
        case let .found(action, parameters):
            route = parameters.template
            outcome = action(request, parameters)
        case .notFound:
            route = "unmatched"
            outcome = RequestOutcome(.error(status: 404, code: "not_found", message: "no route for \(request.path.prefix(200))"))
        case let .methodNotAllowed(template, allowed):
            route = template
            let allow = allowed.joined(separator: ", ")
            outcome = RequestOutcome(.error(status: 405, code: "method_not_allowed",
                                            message: "\(request.method.prefix(20)) is not allowed here; allowed: \(allow)",
                                            headers: ["Allow": allow]))
        }
        if request.method == "HEAD" { outcome.response.body = [] }
        let elapsed = ContinuousClock.now - started
        let status = outcome.response.status
        metrics.http.record(method: request.method, route: route, status: status, duration: elapsed)
        metrics.request(route: route, status: status).increment()
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("request", metadata: {
            var metadata: LogMetadata = [
                "request_id": .string(request.requestID), "method": .string(String(request.method.prefix(20))),
                "route": .string(route), "status": .int(status),
            ]
            if let app = outcome.app { metadata["app"] = .string(app) }
            if outcome.events > 0 || route == IngestServer.eventsRoute {
                metadata["events"] = .int(outcome.events)
                metadata["accepted"] = .int(outcome.accepted)
                metadata["duplicates"] = .int(outcome.duplicates)
                metadata["rejected"] = .int(outcome.rejected)
            }
            metadata["duration_ms"] = .double((milliseconds * 1000).rounded() / 1000)
            return metadata
        }())
        return outcome.response
    }
}
