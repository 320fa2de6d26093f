import ArgumentParsing
import Escaping
import Foundation
import JSON
import Menus
import Reports
import Storage

/// Stored proposals as the review commands show them.
enum PipelineProposals {
    /// The proposal's document (its stored evidence) with its id.
    static func document(_ record: ProposalRecord) throws -> ProposalDocument {
        do {
            var document = try ProposalDocument(jsonText: record.evidence)
            document.proposalID = Int(record.id)
            return document
        } catch {
            throw CLIError.failure("the evidence of proposal \(record.id) does not read: \(error)", causedBy: error)
        }
    }

    static func summary(_ record: ProposalRecord) throws -> ProposalSummary {
        ProposalSummary(id: Int(record.id), app: record.appName, elementType: record.elementType,
                        status: record.status.rawValue, created: record.createdAt,
                        changedItems: try document(record).changedItemCount)
    }

    /// The review facts of a proposal as JSON: id, app, element type, status, base layout version,
    /// window, dates, note, and the document.
    static func json(_ record: ProposalRecord) throws -> JSONValue {
        [
            "id": .number(JSONNumber(Int(record.id))),
            "app": .string(record.appName),
            "element_type": .string(record.elementType),
            "status": .string(record.status.rawValue),
            "base_layout_version": .number(JSONNumber(record.baseLayoutVersion)),
            "window": ["from": .string(ReportDate.day(record.windowFrom)), "to": .string(ReportDate.day(record.windowTo))],
            "created": .string(ReportDate.timestamp(record.createdAt)),
            "decided": record.decidedAt.map { .string(ReportDate.timestamp($0)) } ?? .null,
            "decided_by": record.decidedBy.map(JSONValue.string) ?? .null,
            "note": record.note.map(JSONValue.string) ?? .null,
            "proposal": try document(record).jsonValue,
        ]
    }

    /// The header lines of `show` and `diff`.
    /// Text from the database (names, who decided, the note) as `TerminalText.visible` shows it:
    /// rows written before notes were checked may hold control or bidi formatting characters.
    static func header(_ record: ProposalRecord) -> String {
        let show = TerminalText.visible
        var out = "proposal #\(record.id): \(show(record.appName)) \(show(record.elementType)), \(record.status.rawValue)\n"
        out += "  made \(ReportDate.minute(record.createdAt)) from layout version \(record.baseLayoutVersion), "
            + "window \(ReportDate.day(record.windowFrom)) to \(ReportDate.day(record.windowTo))\n"
        if let decided = record.decidedAt {
            out += "  decided \(ReportDate.minute(decided))" + (record.decidedBy.map { " by \(show($0))" } ?? "") + "\n"
        }
        if let note = record.note { out += "  note: \(show(note))\n" }
        return out
    }

    /// The proposal's id argument (`42` or `#42`).
    static let idArgument: Argument<String> = .required("id", help: "The proposal's id.")

    /// The proposal's id.
    /// - Throws: `CLIError.usage` when it is not a positive number.
    static func id(_ values: ParsedValues) throws -> Int64 {
        let text = values[idArgument]
        guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text),
              id > 0
        else { throw CLIError.usage("a proposal id is a positive number") }
        return id
    }

    /// A proposal and the command titles of its app's newest manifest.
    /// - Throws: `CLIError.failure` for an unknown id.
    static func load(id: Int64, values: ParsedValues) async throws -> (ProposalRecord, [String: CommandInfo]) {
        try await PipelineDatabase.run(values) { connection in
            guard let record = try ProposalStore().proposal(id: id, on: connection) else {
                throw CLIError.failure("no proposal #\(id)")
            }
            let titles = try ManifestStore().latest(appID: record.appID, on: connection)?.document.manifest.commands
            return (record, titles ?? [:])
        }
    }

    /// Every command's use as an aligned table: selections, share, interval, users.
    static func evidenceTable(_ document: ProposalDocument) -> String {
        var rows = [["command", "selections", "share", "95% interval", "users"]]
        for command in document.commands {
            rows.append([command.command, String(command.selections), ReportNumber.percent(command.share),
                         "\(ReportNumber.percent(command.shareLow)) - \(ReportNumber.percent(command.shareHigh))",
                         String(command.users)])
        }
        return PipelineRankOutput.aligned(rows, rightAligned: [1, 2, 3, 4])
    }
}
