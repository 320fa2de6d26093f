import ArgumentParsing
import Foundation
import Menus
import Nightly
import Recommender
import Reports
import Storage

extension Menurank {
    static let reportOut: Option<String> = .required("out", valueName: "file", help: "The HTML file to write.")

    /// `menurank report --app NAME --out FILE.html`: an HTML page with, per element type, the use of
    /// every command and its place in the current and the proposed menu, then the outcome charts of
    /// each menu version (latency distribution, dismissal rate).
    static let reportCommand = CommandSpec(
        name: "report",
        abstract: "Write an HTML report of use per command, current vs proposed menus, outcomes per menu version, and rollouts.",
        discussion: """
            Rolls up what is pending first (as recommend does), then shows, for each \
            element type, what menurank recommend would propose now, without filing anything.
            """,
        options: [
            Option.app.spec,
            reportOut.spec,
        ] + PipelineWindow.options + [
        ] + RecommendOptions.shape,
        run: { context in
            let values = context.values
            let app = values[.app]
            let out = values[reportOut]
            let window = try PipelineWindow.window(values, withHalfLife: false)
            // The nightly job as a dry run: it rolls up what is pending first and files nothing.
            let job = NightlyJob(window: window, options: RecommendOptions.shapeOnly(values), files: false)
            let (run, titles, outcomes, rollouts) = try await PipelineDatabase.run(values) { connection in
                let id = try PipelineDatabase.appID(named: app, on: connection)
                guard let run = try job.run(NightlyApp(id: id, name: app), on: PostgresNightlyStore(connection: connection, helper: nil))
                else {
                    throw CLIError.failure(NightlyError.noManifest(app).description)
                }
                let titles = try ManifestStore().latest(appID: id, on: connection)?.document.manifest.commands ?? [:]
                let outcomes = try PipelineOutcomes.report(appID: id, appName: app, window: window, elementType: nil,
                                                           on: connection)
                let rollouts = try PipelineRollouts.views(appID: id, from: window.firstDay, to: window.asOf, on: connection)
                return (run, titles, outcomes, rollouts)
            }
            let html = HTMLReportRenderer(titles: titles.mapValues(\.title)).render(run.report, outcomes: outcomes,
                                                                                    rollouts: rollouts)
            do {
                try html.write(toFile: out, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError.failure("cannot write \(out): \(error.localizedDescription)")
            }
            context.console.print("wrote \(out) (\(run.report.elementTypes.count) element types)")
        })
}
