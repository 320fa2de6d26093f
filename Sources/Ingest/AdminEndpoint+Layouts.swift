import Escaping
import Foundation
import HTTP
import JSON
import Menus
import Reports
import Storage

/// An element type's served layouts and their undo, for the element type's page:
///
/// - `GET /v1/admin/layouts?app=APP&element_type=T`: `{"app", "element_type", "layouts": [{"version",
///   "source", "proposal_id", "menu_version", "created", "groups"}] (oldest first), "rollbacks":
///   [{"layout_version", "restored_version", "replaced_version", "proposal_id", "decided_by", "note",
///   "created"}] (newest first), "can_roll_back": bool, "command_info"}` (titles, as the proposal's).
/// - `POST /v1/admin/layouts/rollback` `{"app", "element_type", "note"}` (note required, at most
///   2,000 characters): serves the layout from before the last accepted proposal again
///   (`LayoutRollback`), recorded with the token's name and the note; 409 `rollback_refused` with
///   the reason when there is nothing to roll back or a rollout runs.
extension AdminEndpoint {
    func layouts(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            guard let name = request.query("app"), !name.isEmpty,
                  let elementType = request.query("element_type"), !elementType.isEmpty
            else {
                return Self.error(.invalidQuery, "app and element_type are required")
            }
            // Another app's name gets the answer of a missing one (a scoped token learns nothing of it).
            guard let appID = try review.appID(named: name), grant.covers(appID: appID) else {
                return Self.error(.unknownApp, "no app named \(name.prefix(64))")
            }
            let (layouts, rollbacks) = try layoutReview.history(appID: appID, elementType: elementType)
            let lastAccepted = layouts.lastIndex { $0.source == .proposal }
            let canRollBack = lastAccepted.map { $0 > 0 && $0 == layouts.count - 1 } ?? false
            var outcome = RequestOutcome(.json(body: JSONValue.object([
                ("app", .string(name)),
                ("element_type", .string(elementType)),
                ("layouts", .array(layouts.map { record in
                    .object([
                        ("version", .number(JSONNumber(record.version))),
                        ("source", .string(record.source.rawValue)),
                        ("proposal_id", record.proposalID.map { .number(JSONNumber(Int($0))) } ?? .null),
                        ("menu_version", .string(record.menuVersion)),
                        ("created", .string(ReportDate.timestamp(record.createdAt))),
                        ("groups", record.layout.jsonValue),
                    ])
                })),
                ("rollbacks", .array(rollbacks.map(Self.rollbackJSON))),
                ("can_roll_back", .bool(canRollBack)),
                ("command_info", Self.commandInfo(try review.commands(appID: appID))),
            ]).jsonText))
            outcome.app = name
            return outcome
        }
    }

    func rollBack(_ request: HTTPRequest) -> RequestOutcome {
        // The body is checked before anything is looked up, so a bad request changes nothing.
        let asked: (app: String, elementType: String, note: String)
        switch Self.parseRollback(request.body) {
        case .success(let parsed): asked = parsed
        case .failure(let error): return RequestOutcome(error)
        }
        return authorized(request) { grant in
            // Another app's name gets the answer of a missing one (a scoped token learns nothing of it).
            guard let appID = try review.appID(named: asked.app), grant.covers(appID: appID) else {
                return Self.error(.unknownApp, "no app named \(asked.app.prefix(64))")
            }
            do throws(StorageError) {
                let done = try layoutReview.rollBack(appID: appID, elementType: asked.elementType, note: asked.note,
                                                     by: grant.author)
                var members = Self.rollbackJSON(done.rollback).objectValue ?? []
                members.append(("menu_version", .string(done.menuVersion)))
                var outcome = RequestOutcome(.json(body: JSONValue.object(members).jsonText))
                outcome.app = asked.app
                return outcome
            } catch {
                if error.kind == .invalidArgument { return Self.error(.rollbackRefused, error.message) }
                throw error
            }
        }
    }

    static func rollbackJSON(_ record: LayoutRollbackRecord) -> JSONValue {
        .object([
            ("element_type", .string(record.elementType)),
            ("layout_version", .number(JSONNumber(record.layoutVersion))),
            ("restored_version", .number(JSONNumber(record.restoredVersion))),
            ("replaced_version", .number(JSONNumber(record.replacedVersion))),
            ("proposal_id", record.proposalID.map { .number(JSONNumber(Int($0))) } ?? .null),
            ("decided_by", .string(record.decidedBy)),
            ("note", .string(record.note)),
            ("created", .string(ReportDate.timestamp(record.createdAt))),
        ])
    }

    /// `{"app", "element_type", "note"}`, each a non-empty string; the note at most 2,000
    /// characters without control or bidi characters other than newline and tab.
    static func parseRollback(_ body: [UInt8]) -> Swift.Result<(app: String, elementType: String, note: String), IngestError> {
        func bad(_ message: String) -> Swift.Result<(app: String, elementType: String, note: String), IngestError> {
            .failure(IngestError(.invalidRollback, message: message))
        }
        let value: JSONValue
        switch Self.bodyObject(body, maxDepth: 4, code: .invalidRollback, shape: "{\"app\", \"element_type\", \"note\"}") {
        case .success(let found): value = found
        case .failure(let error): return .failure(error)
        }
        guard let app = value["app"]?.stringValue, !app.isEmpty, app.count <= 128 else { return bad("app must be an app's name") }
        guard let elementType = value["element_type"]?.stringValue, !elementType.isEmpty, elementType.utf8.count <= 128
        else { return bad("element_type must be an element type") }
        guard let note = value["note"]?.stringValue, !note.isEmpty else { return bad("note is required: say why") }
        guard note.count <= maxNoteLength else { return bad("note must be at most \(maxNoteLength) characters") }
        guard FreeText.firstRefused(in: note, allowingLineBreaks: true) == nil
        else { return bad("note must not hold \(FreeText.ruleDescription) other than newline and tab") }
        return .success((app, elementType, note))
    }
}
