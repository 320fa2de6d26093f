import ArgumentParsing
import CivilTime
import Ingest
import Storage

extension Menurank {
    static let rollupApp: Option<String?> = .string("app", valueName: "name", help: "Roll up this app only.")
    static let rollupAll: Option<Bool> = .flag("all", help: "Roll up every app (the default).")
    static let rollupRetention: Option<Duration?> = .duration(
        "rollup-retention", valueName: "duration", environment: ["MENURANK_ROLLUP_RETENTION"],
        range: .durations(.seconds(28 * 86_400)...(.seconds(36_500 * 86_400))),
        help: "Then delete the rollups of days older than this, for every app (default: keep them); at least --retention.")
    static let rollupEventRetention: Option<Duration> = .duration(
        "retention", valueName: "duration", default: .seconds(IngestConfiguration().retentionDays * 86_400),
        environment: ["MENURANK_RETENTION"], range: Limits.retention,
        help: "How long the daemon keeps events (serve --retention): --rollup-retention may not be shorter.")

    /// `menurank rollup [--app NAME | --all]`: folds what arrived since the last rollup into the
    /// daily rollups.
    static let rollupCommand = CommandSpec(
        name: "rollup",
        abstract: "Fold newly arrived events into the daily rollups.",
        discussion: """
            Recomputes, from the events, every day that received events since the last rollup \
            (late events re-queue their own day), in one transaction per app. Safe to run while \
            ingestion runs and as often as you like: no event is counted twice or missed. \
            menurank recommend runs it first.
            """,
        options: [
            rollupApp.spec,
            rollupAll.spec,
            rollupRetention.spec,
            rollupEventRetention.spec,
        ],
        validate: { values in
            if values[rollupAll], values[rollupApp] != nil { throw CLIError.usage("give either --app or --all") }
            // As serve refuses it: a day whose events are kept would be rolled up again after its
            // rollups were dropped (by users forget, or a late event).
            let events = values[rollupEventRetention]
            if let rollups = values[rollupRetention], rollups < events {
                throw CLIError.usage("--rollup-retention (\(rollups.components.seconds / 86_400)d) must be at least the events' "
                    + "retention, --retention or MENURANK_RETENTION (\(events.components.seconds / 86_400)d): a day's rollups "
                    + "are rebuilt from its events while they are kept")
            }
        },
        run: { context in
            let app = context.values[rollupApp]
            let outcomes = try await PipelineDatabase.runSharing(context.values) { connection, helper in
                let store = RollupStore(asynchronousCommit: true)
                if let app {
                    let id = try PipelineDatabase.appID(named: app, on: connection)
                    return [(app, try store.rollUp(appID: id, on: connection, alongside: helper))]
                }
                let names = try AppStore.namesByID(on: connection)
                return try store.rollUpAll(on: connection, alongside: helper).map { (names[$0.appID] ?? "#\($0.appID)", $0) }
            }
            if outcomes.allSatisfy({ $0.1.days.isEmpty }) {
                context.console.print("nothing to roll up")
            }
            for (name, outcome) in outcomes where !outcome.days.isEmpty {
                let days = outcome.days.map(\.description)
                let span = days.count == 1 ? days[0] : "\(days.count) days, \(days.first!) to \(days.last!)"
                let blocks = outcome.blocks.isEmpty ? "" : ", \(outcome.blocks.count) block\(outcome.blocks.count == 1 ? "" : "s") of days"
                context.console.print("\(name): rolled up \(span) (\(outcome.commandRows) command rows, \(outcome.elementRows) element type rows\(blocks))")
            }
            if let retention = context.values[rollupRetention] {
                let days = Int(retention.components.seconds / 86_400)
                let firstKept = PartitionManager.today().adding(days: -days)
                let dropped = try await PipelineDatabase.run(context.values) { connection in
                    try PrivacyStore().dropRollups(before: firstKept, on: connection)
                }
                context.console.print("dropped \(dropped) rollup rows of days before \(firstKept)")
            }
        })
}
