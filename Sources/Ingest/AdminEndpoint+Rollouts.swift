import Experiments
import HTTP
import JSON
import Reports
import Storage

/// The admin API's rollouts (docs/rollouts.md), for the review page:
///
/// - `GET /v1/admin/rollouts[?app=NAME&status=running|promoted|stopped]`: rollouts, newest first,
///   each with its facts.
/// - `GET /v1/admin/rollouts/ID`: one rollout with its decisions, its verdict and its comparison, one
///   look per day (`looks`, as `menurank rollouts show --format json`).
/// - `GET /v1/admin/rollout-reports/ID`: the rollout's state and charts as a page of its own
///   (`RolloutChartsHTML`: the intervals over the days), for the review page to frame.
///
/// A token scoped to one app sees only that app's rollouts: another app's rollout or name gets the
/// 404 a missing one gets (`unknown_rollout`, `unknown_app`), as for proposals.
extension AdminEndpoint {
    func rollouts(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            var status: RolloutRecord.Status?
            if let text = request.query("status"), !text.isEmpty, text != "all" {
                guard let parsed = RolloutRecord.Status(rawValue: text) else {
                    return Self.error(.invalidQuery, "status must be one of running, promoted, stopped, all")
                }
                status = parsed
            }
            var appID = grant.appID
            if let name = request.query("app"), !name.isEmpty {
                guard let found = try review.appID(named: name), grant.covers(appID: found) else {
                    return Self.error(.unknownApp, "no app named \(name.prefix(64))")
                }
                appID = found
            }
            let items = try rolloutReview.list(appID: appID, status: status).map { JSONValue.object(RolloutJSON.facts($0)) }
            return RequestOutcome(.json(body: JSONValue.object([("rollouts", .array(items))]).jsonText))
        }
    }

    func rollout(_ request: HTTPRequest, id text: String?) -> RequestOutcome {
        withRollout(request, id: text) { found in
            var members = RolloutJSON.facts(found.rollout)
            members.append(("decisions", RolloutJSON.decisions(found.decisions)))
            members.append(("verdict", .string(found.looks.last?.verdict.rawValue ?? "no difference yet")))
            members.append(("looks", .array(found.looks.map(\.jsonValue))))
            return RequestOutcome(.json(body: JSONValue.object(members).jsonText))
        }
    }

    func rolloutReport(_ request: HTTPRequest, id text: String?) -> RequestOutcome {
        withRollout(request, id: text) { found in
            let view = RolloutView(id: Int(found.rollout.id), elementType: found.rollout.elementType,
                                   status: found.rollout.status.rawValue, share: found.rollout.share,
                                   oldMenuVersion: found.rollout.baseMenuVersion, newMenuVersion: found.rollout.menuVersion,
                                   looks: found.looks)
            let html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Rollout</title>"
                + "<style>body { font-family: -apple-system, system-ui, sans-serif; margin: 1em; color: #1d1d1f; } "
                + "svg { max-width: 100%; height: auto; } code { font-size: 0.95em; }</style></head><body>\n"
                + RolloutChartsHTML().block(view) + "</body></html>\n"
            return RequestOutcome(HTTPResponse(status: 200, headers: [
                "Content-Type": "text/html; charset=utf-8",
                "Content-Security-Policy": HTMLReportRenderer.contentSecurityPolicy + "; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff",
            ], body: Array(html.utf8)))
        }
    }

    /// `authorized`, then the rollout `id` (404 when there is none or it is another app's).
    private func withRollout(_ request: HTTPRequest, id text: String?,
                             _ body: ((rollout: RolloutRecord, decisions: [RolloutDecision], looks: [ExperimentLook])) throws
                                 -> RequestOutcome) -> RequestOutcome
    {
        authorized(request) { grant in
            guard let text, let id = Int64(text), id > 0 else {
                return Self.error(.unknownRollout, "a rollout id is a positive number")
            }
            guard let found = try rolloutReview.rollout(id: id), grant.covers(appID: found.rollout.appID) else {
                return Self.error(.unknownRollout, "no rollout \(id)")
            }
            var outcome = try body(found)
            outcome.app = found.rollout.appName
            return outcome
        }
    }
}
