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
/// - `POST /v1/admin/rollouts/ID` `{"action": "set_share"|"promote"|"stop", "share": 0.5 | "50%",
///   "note": "..."}`: the decisions of `menurank rollouts set-share|promote|stop`, recorded with the
///   token's name; `share` only with `set_share`, and only wider. A rollout that is not running, or
///   a share that does not widen, is a 409 `rollout_conflict` with the reason.
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
                + "svg { max-width: 100%; height: auto; } code { font-size: 0.95em; }\n" + RolloutChartsHTML.css
                + "</style></head><body>\n"
                + RolloutChartsHTML().block(view) + "</body></html>\n"
            return RequestOutcome(HTTPResponse(status: 200, headers: [
                "Content-Type": "text/html; charset=utf-8",
                "Content-Security-Policy": HTMLReportRenderer.contentSecurityPolicy + "; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff",
            ], body: Array(html.utf8)))
        }
    }

    func decideRollout(_ request: HTTPRequest, id text: String?) -> RequestOutcome {
        // The body is checked before the rollout is looked up, so a bad request changes nothing.
        let parsed: (decision: RolloutReview.Decision, note: String?)
        switch Self.parseRolloutDecision(request.body) {
        case .success(let found): parsed = found
        case .failure(let error): return RequestOutcome(error)
        }
        return authorized(request) { grant in
            guard let text, let id = Int64(text), id > 0 else {
                return Self.error(.unknownRollout, "a rollout id is a positive number")
            }
            guard let found = try rolloutReview.record(id: id), grant.covers(appID: found.appID) else {
                return Self.error(.unknownRollout, "no rollout \(id)")
            }
            do throws(StorageError) {
                let decided = try rolloutReview.decide(id: id, parsed.decision, note: parsed.note, by: grant.author)
                var outcome = RequestOutcome(.json(body: JSONValue.object(RolloutJSON.facts(decided)).jsonText))
                outcome.app = decided.appName
                return outcome
            } catch {
                if error.kind == .invalidArgument || error.kind == .notFound {
                    return Self.error(.rolloutConflict, error.message)
                }
                throw error
            }
        }
    }

    /// `{"action": "set_share"|"promote"|"stop", "share": ..., "note": "..."}`: the note as a
    /// proposal decision's (`parseDecision`), the share as an accept's `"rollout"` (0.5 or "50%").
    static func parseRolloutDecision(_ body: [UInt8]) -> Swift.Result<(decision: RolloutReview.Decision, note: String?), IngestError> {
        func bad(_ message: String) -> Swift.Result<(decision: RolloutReview.Decision, note: String?), IngestError> {
            .failure(IngestError(.invalidDecision, message: message))
        }
        let value: JSONValue
        switch Self.bodyObject(body, maxDepth: 8, code: .invalidDecision, shape: "{\"action\": ..., \"note\": ...}") {
        case .success(let found): value = found
        case .failure(let error): return .failure(error)
        }
        let note: String?
        switch Self.note(value) {
        case .success(let text): note = text
        case .failure(let error): return .failure(error)
        }
        let hasShare = value["share"].map { !$0.isNull } ?? false
        switch value["action"]?.stringValue {
        case "promote", "stop":
            guard !hasShare else { return bad("share goes only with the action set_share") }
            return .success((value["action"]?.stringValue == "promote" ? .promote : .stop, note))
        case "set_share":
            guard let share = value["share"].flatMap(Self.share) else {
                return bad("share is the share of people, above 0 and below 1 (0.5) or a percentage (\"50%\")")
            }
            return .success((.setShare(share), note))
        default:
            return bad("action must be \"set_share\", \"promote\" or \"stop\"")
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
