import ArgumentParsing
import CivilTime
import Foundation
import JSON
import Postgres
import Storage

/// Privacy operations: `menurank users forget` and `menurank apps delete`.
extension Menurank {
    static let forgetApp: Option<String> = .required("app", valueName: "name", help: "The app the person used.")
    static let forgetUserID: Argument<String> = .required("id", help: "The user id as the app sends it.")
    static let deleteConfirm: Option<String?> = .string(
        "confirm", valueName: "name", help: "The app's name again, to confirm without a prompt.")

    static let usersCommand = CommandSpec(
        name: "users",
        abstract: "Privacy operations on one person's data.",
        subcommands: [usersForget])

    static let usersForget = CommandSpec(
        name: "forget",
        abstract: "Erase one person's events and recompute the rollups of the days they were on.",
        discussion: """
            ID is the user id exactly as the app sent it in events ("user"); it is hashed with the \
            app's secret the way ingestion hashes it, and every stored event with that hash is \
            deleted. The days those events were on are rolled up again in the same run, so their \
            counts and distinct-user sketches are rebuilt without the person. Days whose events \
            were already dropped by the retention keep the rollups made when they were there: \
            counts and sketch registers (see docs/privacy.md). Scans the app's events once.
            """,
        options: [
            forgetApp.spec,
            textOrJSON.spec,
        ],
        arguments: [forgetUserID.spec],
        validate: { values in
            let id = values[forgetUserID]
            guard !id.isEmpty, id.utf8.count <= 256 else {
                throw CLIError.usage("a user id is 1-256 bytes, as the app sends it")
            }
        },
        run: { context in
            let app = context.values[forgetApp]
            let id = context.values[forgetUserID]
            let forgotten = try await PipelineDatabase.run(context.values) { connection in
                let appID = try PipelineDatabase.appID(named: app, on: connection)
                return try PrivacyStore().forgetUser(id, appID: appID, on: connection)
            }
            if context.values[textOrJSON] == .json {
                context.console.print(JSONValue.object([
                    ("app", .string(app)), ("events_deleted", .number(JSONNumber(forgotten.events))),
                    ("days_recomputed", .array(forgotten.days.map { .string($0.description) })),
                ]).jsonText)
                return
            }
            if forgotten.events == 0 {
                context.console.print("\(app): no stored events of that user")
            } else {
                let days = forgotten.days.map(\.description)
                let span = days.count == 1 ? days[0] : "\(days.count) days, \(days.first!) to \(days.last!)"
                context.console.print("\(app): deleted \(forgotten.events) events of that user and rolled up \(span) again")
            }
        })

    static let appsDelete = CommandSpec(
        name: "delete",
        abstract: "Delete an app and everything it owns (events, rollups, keys, menus, proposals).",
        discussion: """
            Irreversible. Asks for the app's name again on a terminal; otherwise (scripts) pass \
            --confirm NAME. One transaction: either everything of the app is gone or nothing is.
            """,
        options: [deleteConfirm.spec],
        arguments: [appName.spec],
        run: { context in
            let name = context.values[appName]
            if let confirm = context.values[deleteConfirm] {
                guard confirm == name else { throw CLIError.usage("--confirm must repeat the app's name (\(name))") }
            } else if isatty(STDIN_FILENO) == 1 {
                context.console.printError("This deletes the app \(name) with all its events, rollups, keys, menus and "
                    + "proposals. Type the app's name to confirm:")
                guard readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces) == name else {
                    throw CLIError.failure("not confirmed; nothing was deleted")
                }
            } else {
                throw CLIError.usage("deleting an app needs confirmation: pass --confirm \(name)")
            }
            let deleted = try await PipelineDatabase.run(context.values) { connection in
                try PrivacyStore().deleteApp(named: name, on: connection)
            }
            let summary = deleted.map { "\($0.table) \($0.rows)" }.joined(separator: ", ")
            context.console.print("deleted app \(name) (rows: \(summary))")
        })
}

