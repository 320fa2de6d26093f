import ArgumentParsing
import Foundation
import Menus
import Storage

extension Menurank {
    /// `menurank menus import|export|show`: an app's manifest and current layouts.
    static let menusCommand = CommandSpec(
        name: "menus",
        abstract: "Import, export and show an app's menus.",
        subcommands: [menusImportCommand, menusExportCommand, menusShowCommand])

    static let menusFile: Argument<String> = .required("file", help: "The manifest (JSON).")
    static let menusOut: Option<String?> = .string("out", valueName: "file", help: "Write to this file instead of standard output.")

    static let menusImportCommand = CommandSpec(
        name: "import",
        abstract: "Store an app's manifest and its layouts.",
        discussion: """
            The app is the manifest's "app". Stores the manifest as given and, for each element \
            type whose layout (or edit_menu / preview) differs from the current one, a new layout \
            version. Lint findings are shown as warnings; they do not stop the import.
            """,
        arguments: [menusFile.spec],
        run: { context in
            let file = context.values[menusFile]
            let (text, loaded) = try PipelineManifestFile.load(file)
            let document: ManifestDocument
            switch loaded {
            case .success(let value): document = value
            case .failure(let error):
                PipelineManifestFile.errorLines(error, file: file).forEach(context.console.printError)
                throw CLIError.failure("\(file) is not a valid manifest; nothing was imported")
            }
            for finding in ManifestLinter().lint(document).findings where finding.severity != .info {
                context.console.printError("\(file): \(finding)")
            }
            let manifest = document.manifest
            let outcome = try await PipelineDatabase.run(context.values) { connection in
                let app = try PipelineDatabase.appID(named: manifest.app, on: connection)
                return try ManifestStore().importManifest(document, text: text, appID: app, on: connection)
            }
            context.console.print("\(manifest.app): imported manifest \(outcome.manifestID) (version \(manifest.version))")
            for entry in outcome.entries {
                var line: String
                switch entry.change {
                case .added: line = "added, version \(entry.version ?? 1)"
                case .changed: line = "changed, version \(entry.previousVersion ?? 0) -> \(entry.version ?? 0)"
                case .unchanged: line = "unchanged, version \(entry.version ?? 0)"
                case .dropped: line = "not in this manifest; version \(entry.version ?? 0) kept, no longer exported"
                }
                if entry.change != .dropped, let menuVersion = entry.menuVersion {
                    line += ", menu_version \(menuVersion)"
                }
                context.console.print("  \(entry.elementType): \(line)")
            }
        })

    static let menusExportCommand = CommandSpec(
        name: "export",
        abstract: "Write an app's manifest with its current layouts.",
        discussion: """
            The newest imported manifest with each element type's current layout, accepted \
            proposals included, formatted stably so that a pull request shows only real changes. \
            Members that an earlier version imported without reading (a misspelt attribute, say) are \
            left out, each named on standard error.
            """,
        options: [
            Option.app.spec,
            menusOut.spec,
        ],
        run: { context in
            let app = context.values[.app]
            let document = try await PipelineDatabase.run(context.values) { connection in
                let id = try PipelineDatabase.appID(named: app, on: connection)
                guard let current = try ManifestStore().current(appID: id, on: connection) else {
                    throw CLIError.failure("no manifest imported for \(app) (run menurank menus import FILE)")
                }
                return current.manifest.document
            }
            for issue in document.ignored {
                context.console.printError("warning: \(issue.path): \(issue.message); left out of the export")
            }
            let text = ManifestExporter().export(document.manifest)
            if let out = context.values[menusOut] {
                do {
                    try text.write(toFile: out, atomically: true, encoding: .utf8)
                } catch {
                    throw CLIError.failure("cannot write \(out): \(error.localizedDescription)")
                }
            } else {
                context.console.write(text)
            }
        })

    static let menusShowCommand = CommandSpec(
        name: "show",
        abstract: "Show the current layout of each element type of an app.",
        options: [Option.app.spec],
        run: { context in
            let app = context.values[.app]
            let (manifest, layouts) = try await PipelineDatabase.run(context.values) { connection in
                let id = try PipelineDatabase.appID(named: app, on: connection)
                guard let current = try ManifestStore().current(appID: id, on: connection) else {
                    throw CLIError.failure("no manifest imported for \(app) (run menurank menus import FILE)")
                }
                return (current.manifest, current.layouts)
            }
            context.console.print("\(app): manifest \(manifest.manifestID), version \(manifest.version)")
            for elementType in layouts.keys.sorted() {
                let record = layouts[elementType]!
                var origin = record.source == .proposal
                    ? "accepted proposal \(record.proposalID.map(String.init) ?? "?")" : "manifest"
                origin += ", menu_version \(record.menuVersion)"
                if record.editMenu { origin += ", edit menu" }
                if record.preview { origin += ", preview" }
                context.console.print("\n\(elementType) (layout version \(record.version), \(origin))")
                context.console.write(PipelineLayoutText.lines(record.layout, titles: manifest.document.manifest.commands))
            }
        })
}
