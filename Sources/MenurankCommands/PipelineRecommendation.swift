import JSON
import Menus
import Postgres
import Ranking
import Recommender
import Reports
import Storage

/// The nightly run for one app, after the rollup: for each element type of the app's manifest with
/// a current layout, its usage over the window goes to the recommender, the current layout is
/// linted with that usage, and the result becomes a `ProposalDocument`. Element types whose layout
/// should change (`changed`) become drafts that `ProposalStore.file` stores as pending proposals,
/// unless the same proposal is already pending or was rejected.
struct PipelineRecommendation: Sendable {
    var window: RankingWindow
    var options: Recommender.Options

    /// What the run found for one app.
    struct AppRun: Sendable {
        var report: RecommendReport
        /// By element type, for the element types with a changed layout (filed or not).
        var filings: [String: ProposalFiling]
        /// Lint findings about the app as a whole (HIG-1: element types opened in telemetry without
        /// a declared menu), which belong to no element type's entry.
        var appFindings: [LintFinding]
        /// The commands of the manifest the run used (for titles in the output).
        var commands: [String: CommandInfo]
        /// For each entry of `report.elementTypes`, its compact JSON text with `proposal_id` null
        /// when it was already written (the evidence of a draft), else nil: the JSON output reuses
        /// it rather than writing the entry a second time.
        var writtenEntries: [String?] = []
    }

    var lintOptions: LintOptions { LintOptions(maxGroups: options.maxGroups, maxGroupSize: options.maxGroupSize) }

    /// Runs the recommender for one app. With `file` the changed element types are filed as
    /// proposals; without, the existing matching proposals are still looked up (for `proposal_id`).
    /// - Returns: nil when the app has no manifest.
    /// `helper`, a second connection, shares out the reading of the rollups.
    func run(appID: Int32, appName: String, file: Bool, on connection: PostgresConnection,
             alongside helper: PostgresConnection? = nil) throws -> AppRun?
    {
        guard let (stored, layouts) = try ManifestStore().current(appID: appID, on: connection) else { return nil }
        let manifest = stored.document.manifest
        let usages = try PipelineUsage.rank(appID: appID, window: window, confidence: options.confidence,
                                            includePrevious: false, on: connection, alongside: helper)
        let menuUsage = PipelineUsage.menuUsage(usages)
        let recommender = Recommender(options: options)
        let linter = ManifestLinter(options: lintOptions)

        // Each element type on its own, on all cores: recommend, lint, document and its evidence.
        let commands = manifest.commands
        let window = window
        let confidence = options.confidence
        let results = PipelineParallel.map(layouts.keys.sorted()) { elementType -> (ProposalDocument, ProposalDraft?) in
            let record = layouts[elementType]!
            let usage = usages[elementType]
            let proposal = recommender.recommend(current: record.menu, commands: commands,
                                                 usage: usage?.usageCounts ?? [:], menuUsers: usage?.users ?? 0,
                                                 categories: manifest.categories)
            let findings = linter.lint(elementType: elementType, menu: record.menu, commands: commands,
                                       usage: menuUsage[elementType] ?? ElementUsage(opens: 0))
            let document = ProposalDocument(elementType: elementType, current: record.layout, proposal: proposal,
                                            usage: usage, lint: LintReport(findings: findings).findings,
                                            confidence: confidence)
            guard document.changed else { return (document, nil) }
            return (document, ProposalDraft(
                elementType: elementType, baseLayoutVersion: record.version, windowFrom: window.firstDay,
                windowTo: window.asOf, current: record.layout, proposed: proposal.layout,
                evidence: document.jsonValue.jsonText))
        }
        var documents = results.map(\.0)
        let drafts = results.compactMap(\.1)
        let writtenEntries = results.map { $0.1?.evidence }

        let store = ProposalStore()
        var filings: [String: ProposalFiling] = [:]
        if file {
            for (draft, filing) in zip(drafts, try store.file(drafts, appID: appID, on: connection)) {
                filings[draft.elementType] = filing
            }
        } else {
            filings = try store.matches(drafts, appID: appID, on: connection)
        }
        for index in documents.indices {
            if let filing = filings[documents[index].elementType] {
                documents[index].proposalID = Int(filing.proposalID)
            }
        }
        // HIG-1 for element types used but not declared: the manifest lint of those alone (the
        // declared ones were linted above, one by one).
        var undeclared = MenuUsage()
        for (elementType, use) in menuUsage.elements where manifest.menus[elementType] == nil {
            undeclared.elements[elementType] = use
        }
        var bare = manifest
        bare.menus = [:]
        let appFindings = undeclared.elements.isEmpty ? [] : linter.lint(bare, usage: undeclared).findings.filter {
            $0.rule == .hig1 && manifest.menus[$0.elementType ?? ""] == nil
        }
        return AppRun(report: RecommendReport(app: appName, window: window, elementTypes: documents),
                      filings: filings, appFindings: appFindings, commands: manifest.commands,
                      writtenEntries: writtenEntries)
    }
}
