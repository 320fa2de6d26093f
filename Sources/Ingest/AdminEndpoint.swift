import CivilTime
import Escaping
import Foundation
import HTTP
import JSON
import Menus
import Reports
import Storage

/// The admin API of the daemon: review of proposals with an admin token (`menurank tokens create`).
///
/// - `GET /v1/admin/session`: who the token is (`{"name", "app"}`; `app` null for every app).
/// - `GET /v1/admin/proposals[?status=pending&app=NAME&limit=N]`: proposals, newest first.
/// - `GET /v1/admin/proposals/ID`: one proposal with its evidence, its diff (text and Markdown), who
///   decided it, and for a pending one what `GET /v1/menus` will serve once it is accepted.
/// - `POST /v1/admin/proposals/ID` `{"decision": "accept"|"reject", "note": "..."}`: the decision,
///   recorded with the token's name and the time; with `"rollout": 0.2` (or `"20%"`) an accept starts
///   a rollout to that share of people instead (docs/rollouts.md).
/// - `GET /v1/admin/reports/ID`: the proposal's charts (`menurank report`'s HTML for it).
/// - `GET /v1/admin/apps`, `GET /v1/admin/usage?app=...`: the usage dashboard
///   (`AdminEndpoint+Usage.swift`).
/// - `GET /v1/admin/layouts?app=...&element_type=...`, `POST /v1/admin/layouts/rollback`: an element
///   type's layouts and the undo of its last accept (`AdminEndpoint+Layouts.swift`).
///
/// A token scoped to one app gets for another app's proposals, reports and name exactly the 404
/// that a missing id or name gets (`unknown_proposal`, `unknown_app`, same message), so it cannot
/// tell which ids and names exist outside its app. Errors use the
/// API's shape `{"error", "message"}`; bad input is a 4xx, an outage a 503, never a 500.
struct AdminEndpoint: Sendable {
    let authenticator: AdminAuthenticator
    let review: ProposalReview
    let menus: MenuReader
    /// Rollouts and their comparisons (`AdminEndpoint+Rollouts`).
    let rolloutReview: RolloutReview
    let apps: AppStore
    let usageStore: UsageStore
    let layoutReview: LayoutReview
    let retryAfter: Int
    /// Now: the usage's and outcomes' default last day, and the usage's `read_at`.
    let clock: WallClock

    static let maxNoteLength = 2000

    // MARK: - Routes

    func session(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            RequestOutcome(.json(body: JSONValue.object([
                ("name", .string(grant.name)),
                ("author", .string(grant.author)),
                ("app", grant.appName.map(JSONValue.string) ?? .null),
            ]).jsonText))
        }
    }

    func list(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            var status: ProposalStatus?
            if let text = request.query("status"), !text.isEmpty, text != "all" {
                guard let parsed = ProposalStatus(rawValue: text) else {
                    let allowed = (ProposalStatus.allCases.map(\.rawValue) + ["all"]).joined(separator: ", ")
                    return Self.error(.invalidQuery, "status must be one of \(allowed)")
                }
                status = parsed
            }
            var limit = 200
            if let text = request.query("limit") {
                guard let value = Int(text), (1...1000).contains(value) else {
                    return Self.error(.invalidQuery, "limit must be a number from 1 to 1000")
                }
                limit = value
            }
            var appID = grant.appID
            if let name = request.query("app"), !name.isEmpty {
                guard let found = try try review.appID(named: name), grant.covers(appID: found) else {
                    return Self.error(.unknownApp, "no app named \(name.prefix(64))")
                }
                appID = found
            }
            let records = try review.list(appID: appID, status: status, limit: limit)
            let items = records.map { record in
                var members = Self.facts(record)
                let changed = (try? ProposalDocument(jsonText: record.evidence).changedItemCount) ?? 0
                members.append(("changed_items", .number(JSONNumber(changed))))
                return JSONValue.object(members)
            }
            return RequestOutcome(.json(body: JSONValue.object([("proposals", .array(items))]).jsonText))
        }
    }

    func show(_ request: HTTPRequest, id text: String?) -> RequestOutcome {
        withProposal(request, id: text) { grant, record in
            let commands = try review.commands(appID: record.appID)
            let titles = commands.mapValues(\.title)
            var document = try Self.document(record)
            document.proposalID = Int(record.id)
            var members = Self.facts(record)
            members.append(("proposal", document.jsonValue))
            members.append(("command_info", Self.commandInfo(commands)))
            // The ladder of the proposal (shared-contracts.md) as the document reads it, the reading
            // `proposals show --format json` and the embedded report (`report`) use: the stored
            // JSON repeats each step's number of moves beside its list of moved commands, and the
            // page once showed that number while the report counted the list, so a document whose
            // two disagreed read differently on one screen. The number is now the list's length.
            members.append(("step", document.step.map(JSONValue.string) ?? .null))
            members.append(("ladder", document.ladder.isEmpty ? .null : .array(document.ladder.map(\.jsonValue))))
            // The rollups as they are now (the proposal's figures are its night's): their last
            // rollup and what is pending, folding nothing.
            members.append(("freshness", Self.freshness(try usageStore.backlog(appID: record.appID), folded: 0, readAt: clock.now())))
            members.append(("diff", .string(TextReportRenderer(colour: false, titles: titles).render(document))))
            members.append(("markdown", .string(MarkdownReportRenderer(titles: titles).render(document))))
            if record.status == .pending {
                let served = try try menus.currentMenus(appID: record.appID)
                members.append(("served_after_accept", MenusPreview.afterAccepting(
                    elementType: record.elementType, layout: record.proposed, appName: record.appName, menus: served)))
            }
            return RequestOutcome(.json(body: JSONValue.object(members).jsonText))
        }
    }

    func report(_ request: HTTPRequest, id text: String?) -> RequestOutcome {
        withProposal(request, id: text) { _, record in
            let titles = try try review.commands(appID: record.appID)
                .mapValues(\.title)
            var document = try Self.document(record)
            document.proposalID = Int(record.id)
            let html = HTMLReportRenderer(titles: titles).render(document)
            return RequestOutcome(HTTPResponse(status: 200, headers: [
                "Content-Type": "text/html; charset=utf-8",
                "Content-Security-Policy": HTMLReportRenderer.contentSecurityPolicy + "; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff",
            ], body: Array(html.utf8)))
        }
    }

    func decide(_ request: HTTPRequest, id text: String?) -> RequestOutcome {
        // The body is checked before the proposal is looked up, so a bad request changes nothing.
        let decision: (accept: Bool, note: String?, keepPruned: String?)
        switch Self.parseDecision(request.body) {
        case .success(let parsed): decision = parsed
        case .failure(let error): return RequestOutcome(error)
        }
        let rolloutShare: Double?
        switch Self.parseRolloutShare(request.body, accept: decision.accept) {
        case .success(let share): rolloutShare = share
        case .failure(let error): return RequestOutcome(error)
        }
        let step: String?
        switch Self.parseStep(request.body, accept: decision.accept) {
        case .success(let parsed): step = parsed
        case .failure(let error): return RequestOutcome(error)
        }
        if rolloutShare != nil, step != nil {
            return Self.error(.invalidDecision, "step goes with a plain accept; a rollout serves the proposal's filed step")
        }
        return withProposal(request, id: text) { grant, record in
            do throws(StorageError) {
                let decided: ProposalRecord
                var members: [(key: String, value: JSONValue)]
                if let rolloutShare {
                    let rollout = try review.startRollout(id: record.id, share: rolloutShare, note: decision.note,
                                                          by: grant.author, keepingPruned: decision.keepPruned)
                    decided = try review.proposal(id: record.id) ?? record
                    members = Self.facts(decided)
                    members.append(("rollout", .object([
                        ("id", .number(JSONNumber(Int(rollout.id)))),
                        ("share", .number(JSONNumber(rollout.share))),
                        ("menu_version", .string(rollout.menuVersion)),
                        ("base_menu_version", .string(rollout.baseMenuVersion)),
                    ])))
                } else if decision.accept {
                    let result = try review.accept(id: record.id, note: decision.note, by: grant.author,
                                                  keepingPruned: decision.keepPruned, step: step)
                    decided = result.proposal
                    members = Self.facts(decided)
                    members.append(("layout_version", .number(JSONNumber(result.layoutVersion))))
                    members.append(("menu_version", .string(result.menuVersion)))
                } else {
                    decided = try review.reject(id: record.id, note: decision.note, by: grant.author)
                    members = Self.facts(decided)
                }
                var outcome = RequestOutcome(.json(body: JSONValue.object(members).jsonText))
                outcome.app = decided.appName
                return outcome
            } catch {
                if error.kind == .invalidArgument || error.kind == .notFound {
                    return Self.error(.proposalConflict, error.message)
                }
                throw error
            }
        }
    }

    // MARK: - Pieces

    /// `{"decision": "accept"|"reject", "note": "...", "keep_pruned": "Title"}`: the note is
    /// optional, at most 2,000 characters, without control or bidi formatting characters (newline
    /// and tab allowed: `FreeText`);
    /// `keep_pruned` (accept only) keeps the pruned commands in a submenu with that title.
    static func parseDecision(_ body: [UInt8]) -> Swift.Result<(accept: Bool, note: String?, keepPruned: String?), IngestError> {
        func bad(_ message: String) -> Swift.Result<(accept: Bool, note: String?, keepPruned: String?), IngestError> {
            .failure(IngestError(.invalidDecision, message: message))
        }
        let value: JSONValue
        switch Self.bodyObject(body, maxDepth: 8, code: .invalidDecision, shape: "{\"decision\": ..., \"note\": ...}") {
        case .success(let found): value = found
        case .failure(let error): return .failure(error)
        }
        let accept: Bool
        switch value["decision"]?.stringValue {
        case "accept": accept = true
        case "reject": accept = false
        default: return bad("decision must be \"accept\" or \"reject\"")
        }
        let note: String?
        switch Self.note(value) {
        case .success(let text): note = text
        case .failure(let error): return .failure(error)
        }
        var keepPruned: String?
        if let member = value["keep_pruned"], !member.isNull {
            guard accept, let title = member.stringValue else { return bad("keep_pruned is a submenu title, with accept") }
            if !title.isEmpty {
                do throws(Layout.KeepPrunedError) {
                    try Layout.checkKeptTitle(title)
                } catch {
                    return bad("keep_pruned: \(error)")
                }
                keepPruned = title
            }
        }
        return .success((accept, note, keepPruned))
    }

    /// A request's body as a JSON object: 400 `invalid_json` when it is not JSON, 400 `code` (saying
    /// the expected `shape`) when it is JSON but not an object.
    static func bodyObject(_ body: [UInt8], maxDepth: Int, code: APIErrorCode, shape: String) -> Swift.Result<JSONValue, IngestError> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: body, options: .init(maxDepth: maxDepth))
        } catch {
            return .failure(IngestError(.invalidJSON, message: "the body is not JSON: \(error)"))
        }
        guard value.objectValue != nil else { return .failure(IngestError(code, message: "the body must be an object \(shape)")) }
        return .success(value)
    }

    /// A decision's `"note"` member: optional, at most 2,000 characters, without control or bidi
    /// formatting characters (newline and tab allowed: `FreeText`); nil when absent, null or empty.
    static func note(_ value: JSONValue) -> Swift.Result<String?, IngestError> {
        guard let member = value["note"], !member.isNull else { return .success(nil) }
        func bad(_ message: String) -> Swift.Result<String?, IngestError> {
            .failure(IngestError(.invalidDecision, message: message))
        }
        guard let text = member.stringValue else { return bad("note must be a string") }
        guard text.count <= maxNoteLength else { return bad("note must be at most \(maxNoteLength) characters") }
        guard FreeText.firstRefused(in: text, allowingLineBreaks: true) == nil
        else { return bad("note must not hold \(FreeText.ruleDescription) other than newline and tab") }
        return .success(text.isEmpty ? nil : text)
    }

    /// The decision's `"step"` member (accept only): the step of the proposal's ladder to serve
    /// (`promote`, `reorder`, `regroup`) instead of the filed one; nil when absent or null. Like
    /// `proposals accept --step`, it goes without `keep_pruned` and `rollout` (a step is served as
    /// its ladder stored it), so neither is silently dropped.
    static func parseStep(_ body: [UInt8], accept: Bool) -> Swift.Result<String?, IngestError> {
        guard let value = try? JSONParser.parse(bytes: body, options: .init(maxDepth: 8)),
              let member = value["step"], !member.isNull
        else { return .success(nil) }
        guard accept, let step = member.stringValue, ["promote", "reorder", "regroup"].contains(step) else {
            return .failure(IngestError(.invalidDecision,
                                        message: "step is \"promote\", \"reorder\" or \"regroup\", with accept"))
        }
        // An empty keep_pruned is none (`parseDecision`; the review page always sends one).
        let present = { (key: String) in value[key].map { !$0.isNull && $0.stringValue != "" } ?? false }
        guard !present("keep_pruned"), !present("rollout") else {
            return .failure(IngestError(.invalidDecision, message: "step goes without keep_pruned and rollout"))
        }
        return .success(step)
    }

    /// The decision's `"rollout"` member (accept only): the share of people to serve the layout to, a
    /// number above 0 and below 1 (`0.2`) or a percentage (`"20%"`); nil when absent or null.
    static func parseRolloutShare(_ body: [UInt8], accept: Bool) -> Swift.Result<Double?, IngestError> {
        guard let value = try? JSONParser.parse(bytes: body, options: .init(maxDepth: 8)),
              let member = value["rollout"], !member.isNull
        else { return .success(nil) }
        guard accept, let share = Self.share(member) else {
            return .failure(IngestError(.invalidDecision,
                                        message: "rollout is the share of people, above 0 and below 1 (0.2) or a percentage "
                                                 + "(\"20%\"), with accept"))
        }
        return .success(share)
    }

    /// A share of people as JSON: a number above 0 and below 1 (`0.2`) or a percentage (`"20%"`);
    /// nil for anything else.
    static func share(_ member: JSONValue) -> Double? {
        let share: Double?
        switch member {
        case .number(let number): share = Double(number.text)
        case .string(let text) where text.hasSuffix("%"): share = Double(text.dropLast()).map { $0 / 100 }
        default: share = nil
        }
        guard let share, share.isFinite, share > 0, share < 1 else { return nil }
        return share
    }

    /// Per command of the app's manifest, what the page needs to draw it: `{"title", "destructive"}`.
    static func commandInfo(_ commands: [String: CommandInfo]) -> JSONValue {
        .object(commands.keys.sorted().map { id in
            (id, .object([("title", .string(commands[id]!.title)), ("destructive", .bool(commands[id]!.destructive))]))
        })
    }

    /// The review facts of a proposal: the same members as `menurank proposals show --format json`.
    static func facts(_ record: ProposalRecord) -> [(key: String, value: JSONValue)] {
        [
            ("id", .number(JSONNumber(Int(record.id)))),
            ("app", .string(record.appName)),
            ("element_type", .string(record.elementType)),
            ("status", .string(record.status.rawValue)),
            ("base_layout_version", .number(JSONNumber(record.baseLayoutVersion))),
            ("window", .object([("from", .string(ReportDate.day(record.windowFrom))),
                                ("to", .string(ReportDate.day(record.windowTo)))])),
            ("created", .string(ReportDate.timestamp(record.createdAt))),
            ("decided", record.decidedAt.map { .string(ReportDate.timestamp($0)) } ?? .null),
            ("decided_by", record.decidedBy.map(JSONValue.string) ?? .null),
            ("note", record.note.map(JSONValue.string) ?? .null),
        ]
    }

    static func document(_ record: ProposalRecord) throws -> ProposalDocument {
        do {
            return try ProposalDocument(jsonText: record.evidence)
        } catch {
            throw StorageError(.database, "the evidence of proposal \(record.id) does not read: \(error)")
        }
    }

    /// Authenticates, then runs `body`; a `StorageError` it throws becomes a 503 (outage) or a
    /// 500, anything else a 500 (each logged once, by `IngestHandler`).
    func authorized(_ request: HTTPRequest, _ body: (TokenGrant) throws -> RequestOutcome) -> RequestOutcome {
        let grant: TokenGrant
        switch authenticator.authenticate(request) {
        case .success(let found): grant = found
        case .failure(let error): return RequestOutcome(error)
        }
        do {
            return try body(grant)
        } catch let error as StorageError {
            return RequestOutcome(IngestError.failure(error, retryAfter: retryAfter))
        } catch {
            return RequestOutcome(IngestError.failure(unexpected: error))
        }
    }

    /// `authorized`, then the proposal `id` (404 when it is not a proposal or belongs to an app the
    /// token may not review: the same answer, so that a scoped token learns nothing of other apps).
    private func withProposal(_ request: HTTPRequest, id text: String?,
                              _ body: (TokenGrant, ProposalRecord) throws -> RequestOutcome) -> RequestOutcome
    {
        authorized(request) { grant in
            guard let text, let id = Int64(text), id > 0 else {
                return Self.error(.unknownProposal, "a proposal id is a positive number")
            }
            guard let record = try try review.proposal(id: id), grant.covers(appID: record.appID) else {
                return Self.error(.unknownProposal, "no proposal \(id)")
            }
            var outcome = try body(grant, record)
            outcome.app = outcome.app ?? record.appName
            return outcome
        }
    }

    static func error(_ code: APIErrorCode, _ message: String) -> RequestOutcome {
        RequestOutcome(.error(code, message: message))
    }
}
