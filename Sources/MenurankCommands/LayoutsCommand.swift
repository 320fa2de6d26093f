import ArgumentParsing
import Escaping
import Postgres
import Storage

/// `menurank layouts rollback ELEMENT_TYPE [--app APP] --note WHY [--by NAME]`: undo the last accept.
extension Menurank {
    static let layoutElementType: Argument<String> = .required("element-type", help: "The element type to roll back.")
    static let layoutApp: Option<String?> = .string(
        "app", valueName: "name", help: "The app (may be left out when one app has the element type).")
    static let rollbackNote: Option<String> = .required("note", valueName: "text", help: "Why (kept with the rollback).")

    static let layoutsCommand = CommandSpec(
        name: "layouts",
        abstract: "Manage the served layouts: roll back the last accept.",
        subcommands: [layoutsRollback])

    static let layoutsRollback = CommandSpec(
        name: "rollback",
        abstract: "Serve the layout from before the last accepted proposal again.",
        discussion: """
            The layout the element type had before its last accepted proposal becomes current again, \
            as a new layout version with a menu_version of its own (so outcomes tell the versions \
            apart); GET /v1/menus serves it at once. The rollback records who made it (--by, else \
            cli:$USER), when, and the note. Refused when the current layout is not the last accepted \
            one (already rolled back, or a manifest imported since) and while a rollout of the \
            element type runs (stop the rollout instead). The review page has the same as a button \
            on the element type's page.
            """,
        options: [layoutApp.spec, rollbackNote.spec, author.spec],
        arguments: [layoutElementType.spec],
        validate: { values in
            let note = values[rollbackNote]
            if note.isEmpty || note.count > 2000 { throw CLIError.usage("--note must be 1-2000 characters") }
            if FreeText.firstRefused(in: note, allowingLineBreaks: true) != nil {
                throw CLIError.usage("--note must not hold \(FreeText.ruleDescription) other than newline and tab")
            }
            try validateNoteAndAuthor(values)
        },
        run: { context in
            let elementType = context.values[layoutElementType]
            let app = context.values[layoutApp]
            let note = context.values[rollbackNote]
            let author = PipelineProposals.author(context)
            let (appName, done) = try await PipelineDatabase.run(context.values) { connection in
                let (id, name) = try PipelineLayouts.app(app, holding: elementType, on: connection)
                do throws(StorageError) {
                    return (name, try LayoutRollback().rollBack(appID: id, elementType: elementType, note: note, by: author,
                                                                on: connection))
                } catch {
                    if error.kind == .invalidArgument { throw CLIError.failure(error.message) }
                    throw error
                }
            }
            context.console.print("rolled back \(appName) \(elementType): layout version \(done.rollback.restoredVersion) "
                + "is served again as version \(done.rollback.layoutVersion), menu_version \(done.menuVersion) "
                + "(by \(author); it replaced version \(done.rollback.replacedVersion), from proposal "
                + "#\(done.rollback.proposalID.map(String.init) ?? "?"))")
        })
}

/// Glue of the `layouts` commands.
enum PipelineLayouts {
    /// The app named `name`, or when nil the one app whose layouts hold `elementType`.
    /// - Throws: `CLIError.failure` when there is no such app; `CLIError.usage` when several apps
    ///   have the element type and `--app` is missing.
    static func app(_ name: String?, holding elementType: String, on connection: PostgresConnection) throws
        -> (id: Int32, name: String)
    {
        if let name { return (try PipelineDatabase.appID(named: name, on: connection), name) }
        let apps = try LayoutStore().apps(holding: elementType, on: connection)
        guard let first = apps.first else { throw CLIError.failure("no app has a layout for \(elementType)") }
        guard apps.count == 1 else {
            throw CLIError.usage("several apps have \(elementType) (\(apps.map(\.1).joined(separator: ", "))): add --app NAME")
        }
        return first
    }
}
