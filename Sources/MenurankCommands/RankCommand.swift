import ArgumentParsing
import Foundation
import JSON
import Ranking
import Reports
import Storage

extension Menurank {
    static let rankFormat: Option<TableFormat> = .choice("format", default: .table, help: "Output format.")
    static let rankConfidence: Option<Double> = .double(
        "confidence", default: 0.95, range: Limits.confidence, help: "Confidence of the share intervals.")

    /// `menurank rank --app NAME [--element-type T] [--window 28d] [--as-of DATE] [--half-life D]
    /// [--format table|json|csv]`: commands ranked by use, from the rollups.
    static let rankCommand = CommandSpec(
        name: "rank",
        abstract: "Rank the commands of each element type by use.",
        discussion: """
            Rolls up what is pending first (as recommend does), so the newest events count, then \
            reads the daily rollups. For every element type: selections, distinct users, dismissal rate and trend against the previous \
            window; for every command: selections, share with its 95% Wilson interval, user-days (per \
            day, the distinct people who picked it, summed), reach (the people who picked it out of \
            those who used the menu, with its Wilson interval) and trend.

            \(PipelineSegments.discussion)
            """,
        options: [
            Option.app.spec,
            Option.elementType.spec,
        ] + PipelineWindow.options + [
            PipelineWindow.halfLifeOption,
        ] + PipelineSegments.options + [
            rankConfidence.spec,
            rankFormat.spec,
        ],
        run: { context in
            let values = context.values
            let window = try PipelineWindow.window(values, withHalfLife: true)
            let segments = try PipelineSegments.filter(values)
            let confidence = values[rankConfidence]
            let app = values[.app]
            let filter = values[.elementType].map { Set([$0]) }
            let (usages, declared) = try await PipelineDatabase.runSharing(values) { connection, helper in
                let id = try PipelineDatabase.appID(named: app, on: connection)
                try PipelineUsage.foldPending(appID: id, on: connection, alongside: helper)
                let usages = try PipelineUsage.rank(appID: id, window: window, confidence: confidence, elementTypes: filter,
                                                    includePrevious: true, filter: segments, on: connection, alongside: helper)
                return (usages, try UsageStore.declaredCommands(appID: id, on: connection))
            }
            let ranked = usages.keys.sorted().map { usages[$0]! }
            switch values[rankFormat] {
            case .json:
                context.console.print(RankDocument.jsonValue(app: app, window: window, ranked, declared: declared).jsonText)
            case .csv: context.console.write(PipelineRankOutput.csv(ranked))
            case .table:
                context.console.write(PipelineRankOutput.table(app: app, window: window, ranked, declared: declared))
            }
        })
}
