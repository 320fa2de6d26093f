import ArgumentParsing
import CivilTime
import JSON
import Outcomes
import Ranking
import Reports
import Postgres
import Storage

extension Menurank {
    static let outcomesMinimumSelections: Option<Int> = .int(
        "min-selections", default: Int(OutcomeComparison.defaultMinimumSelections), range: .ints(1...1_000_000_000),
        help: "Fewest selections with a latency on each side for a verdict.")

    /// `menurank outcomes --app A [--element-type T] [--window 28d] [--as-of DATE]
    /// [--format text|markdown|json]`: did an accepted layout make picking faster?
    static let outcomesCommand = CommandSpec(
        name: "outcomes",
        abstract: "Measure each menu version: opens, dismissals, latency; and accepted layouts against their predecessors.",
        discussion: """
            Rolls up what is pending first (as recommend does), then reads the daily outcome rollups. For \
            each element type and each menu_version seen in the window: opens, dismissal rate with \
            its 95% Wilson interval, median and 75th-percentile selection latency with 95% intervals \
            (order statistics), mean picked position and observed scan depth (position + 1). Versions \
            no layout has are reported as unknown; events without one as not sent.

            For each layout accepted from a proposal: the difference from its predecessor in median \
            latency (Price-Bonett) and in dismissal rate (Newcombe), each with a 95% interval, and a \
            verdict: faster, slower, or no evidence yet (the interval includes zero, or fewer than \
            --min-selections selections with a latency on a side), beside what the proposal \
            predicted. Both versions are compared over the days on which both were served when \
            those hold enough selections, else over adjacent windows; the output says which.

            Rollouts that ran in the window follow, each with its arms, its verdict and its latest \
            comparison (always-valid intervals over people; menurank rollouts show, docs/rollouts.md).

            \(PipelineSegments.discussion)
            """,
        options: [
            Option.app.spec,
            Option.elementType.spec,
        ] + PipelineWindow.options + PipelineSegments.options + [
            outcomesMinimumSelections.spec,
            Option.documentFormat.spec,
        ],
        run: { context in
            let values = context.values
            let window = try PipelineWindow.window(values, withHalfLife: false)
            let segments = try PipelineSegments.filter(values)
            let minimum = values[outcomesMinimumSelections]
            let app = values[.app]
            let elementType = values[.elementType]
            let (report, rollouts) = try await PipelineDatabase.run(values) { connection in
                let id = try PipelineDatabase.appID(named: app, on: connection)
                try PipelineUsage.foldPending(appID: id, on: connection)
                return (try PipelineOutcomes.report(appID: id, appName: app, window: window, elementType: elementType,
                                                    minimumSelections: Int64(minimum), filter: segments, on: connection),
                        try PipelineRollouts.views(appID: id, from: window.firstDay, to: window.asOf, elementType: elementType,
                                                   on: connection))
            }
            switch values[.documentFormat] {
            case .json:
                var document = report.jsonValue
                if case .object(var members) = document {
                    members.append(("rollouts", PipelineRollouts.json(rollouts)))
                    document = .object(members)
                }
                context.console.print(document.jsonText)
            case .markdown:
                context.console.write(OutcomeReportRenderer().markdown(report))
                if !rollouts.isEmpty {
                    context.console.write("\n```\n" + PipelineRollouts.outcomesText(rollouts).dropFirst() + "```\n")
                }
            case .text:
                context.console.write(OutcomeReportRenderer(colour: PipelineRecommendOutput.colour(context)).text(report))
                context.console.write(PipelineRollouts.outcomesText(rollouts))
            }
        })
}

/// Glue between the outcome rollups, stored proposals and the outcome analysis.
enum PipelineOutcomes {
    /// The outcome report of an app over a window, from the rollups and the layout history.
    static func report(appID: Int32, appName: String, window: RankingWindow, elementType: String?,
                       minimumSelections: Int64 = OutcomeComparison.defaultMinimumSelections,
                       filter: SegmentFilter = .default, on connection: PostgresConnection) throws -> OutcomeReport
    {
        try OutcomeQuery().report(appID: appID, appName: appName, from: window.firstDay,
                                  to: window.asOf,
                                  elementType: elementType, minimumSelections: minimumSelections, filter: filter,
                                  predicted: PredictedEvidence.init(evidence:), on: connection)
    }
}
