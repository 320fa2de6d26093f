import JSON
import Locking
import Menus
import Nightly
import Postgres
import Ranking
import Recommender
import Reports
import Storage

/// The nightly run for one app on the database, after the rollup: the app's current layouts and
/// the rollups' usage go through `NightlyRun` (the use case `recommend --manifest --events` shares),
/// and the element types whose proposal may be filed become drafts that `ProposalStore.file` stores
/// as pending proposals, unless the same proposal is already pending or was rejected.
///
/// In two steps: `prepare` (everything up to filing) and `finish` (filing, after the rollup has
/// committed). `recommend` runs `prepare` on the helper connection while its rollup writes the new
/// day (`prepare(appID:appName:on:replacing:)` with the rollup's `RollupPreview`, which reads
/// exactly what the committed rollups will hold), else after the rollup (`run`).
///
/// Concurrency: runs on the one thread of its own that `PipelineDatabase.run` gives the command
/// (libpq blocks), with the window's totals read on two connections at once
/// (`RankingQuery.activities`, `PostgresConnection.splitRead`) while a third thread decodes the
/// stored menus (the manifest's JSON and every current layout, read beforehand), and the
/// per-element-type work on all cores (`NightlyRun`, `ParallelMap`); all fork threads of our own
/// and join them (`ForkJoin`). Nothing here runs on Swift's cooperative pool.
///
/// Proposals on file are looked up once, for every changed proposal (`ProposalStore.lookUp`): the
/// lookup gives both the stability they recorded (not resampled) and what filing keeps. Only the
/// drafts that matched nothing go to `ProposalStore.file`, which checks them again under the
/// app's menu lock; a night that proposes what is on file writes nothing and takes no lock. Each
/// element type's outcome is thus decided from one consistent view of its proposals, as if the
/// run had happened at the lookup (a proposal decided by a reviewer in between is reported as it
/// was then, and the next night sees the decision).
///
/// Each document is written as JSON once: the ids of new proposals are drawn before their evidence
/// is written (`ProposalStore.file(_:appID:on:evidence:)`), so the stored text carries the id and
/// is what the JSON output prints.
struct PipelineRecommendation: Sendable {
    var window: RankingWindow
    var options: Recommender.Options
    /// The events counted (by default every non-test event).
    var filter: SegmentFilter = .default

    /// What the run found for one app.
    struct AppRun: Sendable {
        /// With each document's `proposalID` (the proposal filed, or the one already standing).
        var report: RecommendReport
        /// By element type, for the element types whose proposal may be filed (filed or not).
        var filings: [String: ProposalFiling] = [:]
        /// Lint findings about the app as a whole (HIG-1: element types opened in telemetry without
        /// a declared menu), which belong to no element type's entry.
        var appFindings: [LintFinding]
        /// The commands of the manifest the run used (for titles in the output).
        var commands: [String: CommandInfo]
        /// For each entry of `report.elementTypes`, its compact JSON text when it was already
        /// written (the evidence of a proposal filed by this run, with its id), else nil.
        var writtenEntries: [String?] = []
    }

    /// What a night found for one app before anything is filed (`prepare`), for `finish`.
    struct Prepared: Sendable {
        var outcome: NightlyOutcome
        /// The changed proposals' matches among the proposals on file, by element type.
        var onFile: [String: ProposalStore.Match]
        /// The current layouts, by element type.
        var layouts: [String: LayoutRecord]
        var commands: [String: CommandInfo]
    }

    /// Runs the night for one app. With `file` the proposals that may be filed are filed; without,
    /// the existing matching proposals are still looked up (for `proposal_id`).
    /// `helper`, a second connection, shares out the reading of the rollups.
    /// - Returns: nil when the app has no manifest.
    func run(appID: Int32, appName: String, file: Bool, on connection: PostgresConnection,
             alongside helper: PostgresConnection? = nil) throws -> AppRun?
    {
        guard let prepared = try prepare(appID: appID, appName: appName, on: connection, alongside: helper) else { return nil }
        return try finish(prepared, appID: appID, file: file, on: connection)
    }

    /// Whether `prepare(appID:appName:on:replacing:)` can run on `preview`, read while the rollup
    /// that handed it writes (the default events, no decay: `RankingQuery.accepts`).
    func accepts(_ preview: RollupPreview) -> Bool {
        filter.isDefault && RankingQuery(appID: 0, window: window, includePrevious: false).accepts(preview)
    }

    /// `prepare` while a rollup writes, on one connection of its own, with the rows of the days the
    /// rollup recomputes taken from `preview` (`RankingQuery.activities(on:replacing:)`): the same
    /// outcome as `prepare` once the rollup has committed. Only for a preview it `accepts`.
    func prepare(appID: Int32, appName: String, on connection: PostgresConnection,
                 replacing preview: RollupPreview) throws -> Prepared?
    {
        try prepare(appID: appID, appName: appName, on: connection, alongside: nil, preview: preview)
    }

    /// Everything up to filing: the current menus and the window's usage read, the night run
    /// (`NightlyRun`), the changed proposals looked up among those on file.
    /// - Returns: nil when the app has no manifest.
    func prepare(appID: Int32, appName: String, on connection: PostgresConnection,
                 alongside helper: PostgresConnection?, preview: RollupPreview? = nil) throws -> Prepared?
    {
        let stored = try ManifestStore().fetchCurrent(appID: appID, on: connection)
        guard stored.hasManifest else { return nil }
        let query = RankingQuery(appID: appID, window: window, includePrevious: false,
                                 segments: try PipelineSegments.segments(filter, appID: appID, on: connection))
        let (activities, decoded) = try ForkJoin.both({
            if let preview { return try query.activities(on: connection, replacing: preview) }
            return try query.activities(on: connection, alongside: helper)
        }, alongside: { try stored.decoded() })
        guard let (record, layouts) = decoded else { return nil }
        var manifest = record.document.manifest
        manifest.menus = manifest.menus.filter { layouts[$0.key] != nil }
        let store = ProposalStore()
        var onFile: [String: ProposalStore.Match] = [:]
        let outcome = try NightlyRun(window: window, options: options).run(
            app: appName, manifest: manifest, activities: activities,
            recordedStability: { proposed in
                let drafts = proposed.keys.sorted().compactMap { elementType -> ProposalDraft? in
                    guard let record = layouts[elementType] else { return nil }
                    return ProposalDraft(elementType: elementType, baseLayoutVersion: record.version,
                                         windowFrom: window.firstDay, windowTo: window.asOf, current: record.layout,
                                         proposed: proposed[elementType]!, evidence: "")
                }
                onFile = try store.lookUp(drafts, appID: appID, on: connection)
                return onFile.compactMapValues { match in
                    let steps = Dictionary(uniqueKeysWithValues: match.stabilities.compactMap { step, value in
                        LadderStep.Kind(rawValue: step).map { ($0, value) }
                    })
                    return steps.isEmpty ? nil : steps
                }
            })
        return Prepared(outcome: outcome, onFile: onFile, layouts: layouts, commands: manifest.commands)
    }

    /// Files what `prepare` found (with `file`) and gives the app's run.
    func finish(_ prepared: Prepared, appID: Int32, file: Bool, on connection: PostgresConnection) throws -> AppRun {
        let (outcome, onFile, layouts) = (prepared.outcome, prepared.onFile, prepared.layouts)
        let store = ProposalStore()
        var report = outcome.report
        var written = [String?](repeating: nil, count: report.elementTypes.count)
        // Every proposal that may be filed changed, so the lookup above saw its draft.
        var filings = onFile.filter { outcome.toFile.contains($0.key) }.mapValues(\.filing)
        let drafts = report.elementTypes.enumerated().compactMap { index, document -> (Int, ProposalDraft)? in
            guard outcome.toFile.contains(document.elementType), filings[document.elementType] == nil,
                  let record = layouts[document.elementType]
            else { return nil }
            return (index, ProposalDraft(
                elementType: document.elementType, baseLayoutVersion: record.version, windowFrom: window.firstDay,
                windowTo: window.asOf, current: record.layout, proposed: document.proposed, evidence: ""))
        }
        if file, !drafts.isEmpty {
            let documents = report.elementTypes
            let filed = try store.file(drafts.map(\.1), appID: appID, on: connection) { draft, id in
                var document = documents[drafts[draft].0]
                document.proposalID = Int(id)
                let text = document.jsonText()
                written[drafts[draft].0] = text
                return text
            }
            for ((_, draft), filing) in zip(drafts, filed) { filings[draft.elementType] = filing }
        }
        for index in report.elementTypes.indices {
            if let id = filings[report.elementTypes[index].elementType]?.proposalID {
                report.elementTypes[index].proposalID = Int(id)
            }
        }
        return AppRun(report: report, filings: filings, appFindings: outcome.appFindings, commands: prepared.commands,
                      writtenEntries: written)
    }
}
