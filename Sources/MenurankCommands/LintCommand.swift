import ArgumentParsing
import JSON
import Menus
import Storage

extension Menurank {
    static let lintStrict: Option<Bool> = .flag("strict", help: "Fail on warnings too.")
    static let lintFile: Argument<String> = .required("file", help: "The manifest (JSON).")
    static let lintFormat: Option<TextOrJSON> = .format(help: "Output format.")
    static let lintApp: Option<String?> = .string(
        "app", valueName: "name", help: "Check usage rules against this app's rollups.")
    static let lintMaxGroups: Option<Int> = .int(
        "max-groups", valueName: "n", default: LintOptions().maxGroups, range: Limits.maxGroups,
        help: "Most groups a menu should have.")
    static let lintMaxGroupSize: Option<Int> = .int(
        "max-group-size", valueName: "n", default: LintOptions().maxGroupSize, range: .ints(1...Limits.maxGroupSize),
        help: "Most items a group should have.")

    /// `menurank lint FILE [--strict] [--format text|json] [--max-groups N] [--max-group-size N]
    /// [--app NAME [--window 28d] [--as-of DATE]]`.
    static let lintCommand = CommandSpec(
        name: "lint",
        abstract: "Check a manifest against Apple's HIG rules for context menus.",
        discussion: """
            Each finding names its rule (HIG-1 to HIG-8, CONVENTION, STRUCTURE, MANIFEST), severity, JSON path \
            and what to do. Exits 0 without errors, 1 with errors (or with warnings under --strict), \
            so it fits an app's CI. With --app, usage from the database's rollups adds the usage \
            rules: HIG-1 (element types opened without a declared menu, menus never opened, selections of \
            commands the manifest does not declare, counted per element type) and HIG-5 \
            (most-used command not near the top).
            """,
        options: [
            lintStrict.spec,
            lintFormat.spec,
            lintMaxGroups.spec, lintMaxGroupSize.spec,
            lintApp.spec,
        ] + PipelineWindow.options,
        arguments: [lintFile.spec],
        run: { context in
            let values = context.values
            let file = values[lintFile]
            let json = values[lintFormat] == .json
            let (_, loaded) = try PipelineManifestFile.load(file)
            let document: ManifestDocument
            switch loaded {
            case .success(let value): document = value
            case .failure(let error):
                if json {
                    context.console.print(error.jsonValue.jsonText)
                } else {
                    PipelineManifestFile.errorLines(error, file: file).forEach(context.console.print)
                }
                throw CLIError.exit(.failure)
            }
            var usage: MenuUsage?
            if let app = values[lintApp] {
                let window = try PipelineWindow.window(values, withHalfLife: false)
                usage = try await PipelineDatabase.run(values) { connection in
                    let id = try PipelineDatabase.appID(named: app, on: connection)
                    return PipelineUsage.menuUsage(try PipelineUsage.rank(
                        appID: id, window: window, confidence: 0.95, includePrevious: false, on: connection))
                }
            }
            let options = LintOptions(maxGroups: values[lintMaxGroups], maxGroupSize: values[lintMaxGroupSize])
            var report = ManifestLinter(options: options).lint(document, usage: usage)
            if let usage {
                report = LintReport(findings: report.findings + ManifestLinter.undeclaredCommands(document.manifest, usage: usage))
            }
            if json {
                context.console.print(report.jsonValue.jsonText)
            } else {
                for finding in report.findings { context.console.print("\(file): \(finding)") }
                let errors = report.count(.error), warnings = report.count(.warning), infos = report.count(.info)
                context.console.print("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(infos) note\(infos == 1 ? "" : "s")")
            }
            let status = report.exitStatus(strict: values[lintStrict])
            if status != 0 { throw CLIError.exit(ExitCode(status)) }
        })
}
