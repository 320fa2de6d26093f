import Foundation
import HTTP
import Observability

/// The daemon's HTTP handler: routes, then counts and logs every request (one line at info with the
/// request id, route template, status, events and duration; and for a 5xx, the one line that
/// says why, at warning for a 503 and error for a 500). A route may also judge a request
/// from its head alone (the key, say), before its body is read: a refusal there is counted and
/// logged the same way, and unknown paths and methods are refused there too, so no body is ever
/// buffered for a request that will not be served.
struct IngestHandler: HTTPHandler {
    typealias Action = @Sendable (HTTPRequest, RouteParameters) -> RequestOutcome
    /// Judges a request from its head (its body is not read yet): an outcome refuses it, nil admits it.
    typealias Admission = @Sendable (HTTPRequest) -> RequestOutcome?

    private struct Route: Sendable {
        let admit: Admission?
        let action: Action
    }

    private var router = Router<Route>()
    let metrics: IngestMetrics
    let logger: Logger
    /// CORS for the events and menus routes (nil: none, as in tests of the handler alone).
    var crossOrigin: CrossOrigin?

    init(metrics: IngestMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    mutating func add(_ method: String, _ template: String, admit: Admission? = nil, _ action: @escaping Action) {
        router.add(method, template, Route(admit: admit, action: action))
    }

    func admit(_ head: HTTPRequest) -> HTTPResponse? {
        let started = ContinuousClock.now
        if let (route, outcome) = crossOrigin?.preflight(head) {
            return finish(head, route: route, outcome: outcome, started: started)
        }
        switch router.match(method: head.method, path: head.path) {
        case let .found(route, parameters):
            guard let refusal = route.admit?(head) else { return nil }
            return finish(head, route: parameters.template, outcome: refusal, started: started)
        case .notFound, .methodNotAllowed:
            let (route, outcome) = unrouted(head)
            return finish(head, route: route, outcome: outcome, started: started)
        }
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        if let (route, outcome) = crossOrigin?.preflight(request) {
            return finish(request, route: route, outcome: outcome, started: started)
        }
        switch router.match(method: request.method, path: request.path) {
        case let .found(route, parameters):
            return finish(request, route: parameters.template, outcome: route.action(request, parameters), started: started)
        case .notFound, .methodNotAllowed:
            let (route, outcome) = unrouted(request)
            return finish(request, route: route, outcome: outcome, started: started)
        }
    }

    /// An answer the HTTP server decided itself (framing, body cap, body budget, a response that
    /// could not be sent): counted and logged like every other, a 5xx with its cause.
    func serverAnswered(_ head: HTTPRequest, with response: HTTPResponse, cause: String) {
        let route: String
        switch router.match(method: head.method, path: head.path) {
        case let .found(_, parameters): route = parameters.template
        case let .methodNotAllowed(template, _): route = template
        case .notFound: route = "unmatched"
        }
        var outcome = RequestOutcome(response)
        outcome.failure = cause
        _ = finish(head, route: route, outcome: outcome, started: ContinuousClock.now)
    }

    /// The server's own answers (a body over the cap, say) get the CORS headers of their origin
    /// too, so a page's client can read a 413 and split its batch instead of seeing a network error.
    func amend(_ response: HTTPResponse, answering head: HTTPRequest) -> HTTPResponse {
        crossOrigin?.decorate(response, for: head, appOrigins: nil) ?? response
    }

    /// 404 for an unknown path, 405 with `Allow` for a known path and another method, answered as
    /// every routing handler answers them (`HTTPResponse.unrouted(_:allowed:)`).
    private func unrouted(_ request: HTTPRequest) -> (route: String, outcome: RequestOutcome) {
        switch router.match(method: request.method, path: request.path) {
        case let .methodNotAllowed(template, allowed):
            return (template, RequestOutcome(.unrouted(request, allowed: allowed)))
        default:
            return ("unmatched", RequestOutcome(.unrouted(request, allowed: nil)))
        }
    }

    /// Counts and logs the request, and returns its response.
    private func finish(_ request: HTTPRequest, route: String, outcome: RequestOutcome,
                        started: ContinuousClock.Instant) -> HTTPResponse {
        var outcome = outcome
        if request.method == "HEAD" { outcome.response.body = [] }
        if let crossOrigin {
            outcome.response = crossOrigin.decorate(outcome.response, for: request, appOrigins: outcome.appOrigins)
        }
        let elapsed = ContinuousClock.now - started
        let status = outcome.response.status
        metrics.http.record(method: request.method, route: route, status: status, duration: elapsed)
        metrics.request(route: route, status: status).increment()
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        if status >= 500 {
            // The one place a 5xx is logged: with its request id, route and cause (which the client
            // never reads). A 503 is a condition a retry resolves (warning); a 500 is a bug (error).
            let metadata: LogMetadata = [
                "request_id": .string(request.requestID), "method": .string(String(request.method.prefix(20))),
                "route": .string(route), "status": .int(status),
                "error": .string(outcome.failure ?? "no cause recorded"),
            ]
            if status == 503 {
                logger.warning("request failed", metadata: metadata)
            } else {
                logger.error("request failed", metadata: metadata)
            }
        }
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
