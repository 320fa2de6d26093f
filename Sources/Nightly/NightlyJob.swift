public import Menus
public import Ranking
public import Recommender
public import Reports
import JSON

/// The nightly use case as a whole (DESIGN.md, "Recommendation"): for every app (or one), the
/// rollup with the reading of the window's usage (the store's), the night itself (`NightlyRun`:
/// ranking, the ladder, stability, lint), the lookup of what is on file, the filing, and the
/// documents. `menurank recommend` (on PostgreSQL or in memory) and the daemon's night
/// (`serve --nightly-at`) run this one job; they differ only in the store and in what they do with
/// the documents.
///
/// Per app, in order:
/// 1. `store.open`: the rollup of what is queued and the reading of the current menus and the
///    window's usage (PostgreSQL reads them while the rollup writes, and returns before it
///    commits, so the rollup's last writes overlap steps 2 and 3);
/// 2. `NightlyRun`: every element type ranked and recommended, and for the changed proposals the
///    proposals on file looked up (`store.onFile`, while the lint runs on other threads): what
///    matches one keeps its recorded stability, the rest are resampled;
/// 3. `store.close`: the rollup has committed (its error, if any, is thrown here);
/// 4. unless the job is a dry run: the proposals that change the menu, are not tentative and
///    match nothing on file are filed at once (`store.file`, one transaction), each document
///    written once, with its id, as the evidence that the output prints too.
///
/// Stopping: `shouldStop` is asked before each app and before filing; when it says yes the job
/// throws `NightlyError.cancelled` and files nothing more. Filing itself is one transaction, so a
/// night stopped at any point leaves each app's proposals filed wholly or not at all.
///
/// Runs on the calling thread, which it blocks (the stores block on I/O; `NightlyRun` forks pure
/// work onto threads of its own), so it is called from a thread of its own, never from Swift's
/// cooperative pool.
public struct NightlyJob: Sendable {
    public var window: RankingWindow
    public var options: Recommender.Options
    /// The events counted (by default every non-test event).
    public var filter: SegmentFilter
    /// Whether proposals are filed; without, the proposals on file are still looked up (their ids
    /// are reported) and nothing is written but the rollups.
    public var files: Bool

    public init(window: RankingWindow, options: Recommender.Options, filter: SegmentFilter = .default, files: Bool) {
        self.window = window
        self.options = options
        self.filter = filter
        self.files = files
    }

    /// The night of the app called `name`, or with nil of every app with a manifest, by name.
    /// - Throws: `NightlyError.unknownApp` or `.noManifest` for a named app that has no night,
    ///   `.cancelled` when `shouldStop` said so, and the store's errors.
    public func run(appNamed name: String?, on store: some NightlyStore, shouldStop: () -> Bool = { false }) throws
        -> [NightlyAppRun]
    {
        var runs: [NightlyAppRun] = []
        for app in try store.apps(named: name) {
            if shouldStop() { throw NightlyError.cancelled }
            guard let run = try run(app, on: store, shouldStop: shouldStop) else {
                if name != nil { throw NightlyError.noManifest(app.name) }
                continue
            }
            runs.append(run)
        }
        return runs
    }

    /// The night of one app; nil when it has no manifest (its rollup still ran).
    public func run(_ app: NightlyApp, on store: some NightlyStore, shouldStop: () -> Bool = { false }) throws
        -> NightlyAppRun?
    {
        let night: (input: NightlyInput, outcome: NightlyOutcome, onFile: [String: NightlyMatch])?
        do {
            night = try store.open(app, window: window, filter: filter).map { input in
                let (outcome, onFile) = try recommend(app, input, on: store)
                return (input, outcome, onFile)
            }
        } catch {
            // The rollup finishes (or fails) either way; the night's own error is the one told.
            _ = try? store.close(app)
            throw error
        }
        let rollup = try store.close(app)
        guard let (input, outcome, onFile) = night else { return nil }

        var report = outcome.report
        // Every proposal that may be filed changed, so the lookup saw its draft.
        var filings = onFile.filter { outcome.toFile.contains($0.key) }.mapValues { $0.filing }
        var filedJSON: [Int: String] = [:]
        let toFile = report.elementTypes.indices.filter { index in
            let elementType = report.elementTypes[index].elementType
            return outcome.toFile.contains(elementType) && filings[elementType] == nil && input.baseVersions[elementType] != nil
        }
        if files, !toFile.isEmpty {
            if shouldStop() { throw NightlyError.cancelled }
            let documents = toFile.map { report.elementTypes[$0] }
            let drafts = documents.map { document in
                NightlyDraft(elementType: document.elementType, baseVersion: input.baseVersions[document.elementType]!,
                             window: window, current: input.manifest.menus[document.elementType]!.layout,
                             proposed: document.proposed)
            }
            let filed = try store.file(drafts, documents: documents, of: app)
            for (index, result) in zip(toFile, filed) {
                filings[report.elementTypes[index].elementType] = result.filing
                if let text = result.evidence { filedJSON[index] = text }
            }
        }
        for index in report.elementTypes.indices {
            if let id = filings[report.elementTypes[index].elementType]?.proposalID {
                report.elementTypes[index].proposalID = Int(id)
            }
        }
        return NightlyAppRun(report: report, filings: filings, appFindings: outcome.appFindings,
                             commands: input.manifest.commands, filedJSON: filedJSON, rollup: rollup,
                             readWhileRollingUp: input.readWhileRollingUp, previewFailure: input.previewFailure)
    }

    /// Step 2: the night on what `open` read, with the changed proposals looked up on file.
    private func recommend(_ app: NightlyApp, _ input: NightlyInput, on store: some NightlyStore) throws
        -> (NightlyOutcome, [String: NightlyMatch])
    {
        var onFile: [String: NightlyMatch] = [:]
        let window = window
        let outcome = try NightlyRun(window: window, options: options).run(
            app: app.name, manifest: input.manifest, activities: input.activities,
            recordedStability: { proposed in
                let drafts = proposed.keys.sorted().compactMap { elementType -> NightlyDraft? in
                    guard let base = input.baseVersions[elementType], let menu = input.manifest.menus[elementType] else {
                        return nil
                    }
                    return NightlyDraft(elementType: elementType, baseVersion: base, window: window, current: menu.layout,
                                        proposed: proposed[elementType]!)
                }
                onFile = try store.onFile(drafts, of: app)
                return onFile.compactMapValues { match in
                    let steps = Dictionary(uniqueKeysWithValues: match.stabilities.compactMap { step, value in
                        LadderStep.Kind(rawValue: step).map { ($0, value) }
                    })
                    return steps.isEmpty ? nil : steps
                }
            })
        return (outcome, onFile)
    }
}

/// What a night found and did for one app.
public struct NightlyAppRun: Sendable {
    /// Every element type with a current menu, each document with its `proposalID` (the proposal
    /// filed, or the one already standing).
    public var report: RecommendReport
    /// By element type, for the element types whose proposal may be filed (filed or not).
    public var filings: [String: ProposalFiling]
    /// Lint findings about the app as a whole (HIG-1: element types opened in telemetry without a
    /// declared menu), which belong to no element type's entry.
    public var appFindings: [LintFinding]
    /// The commands of the manifest the night used (for titles in the output).
    public var commands: [String: CommandInfo]
    /// By index into `report.elementTypes`: the compact JSON text of the documents this night
    /// filed, as stored (with their ids).
    public var filedJSON: [Int: String]
    public var rollup: NightlyRollup
    /// Whether the usage was read while the rollup wrote.
    public var readWhileRollingUp: Bool
    /// Why reading the usage while the rollup wrote failed (it was read again after), if it did.
    public var previewFailure: String?

    public init(report: RecommendReport, filings: [String: ProposalFiling] = [:], appFindings: [LintFinding],
                commands: [String: CommandInfo], filedJSON: [Int: String] = [:], rollup: NightlyRollup = NightlyRollup(),
                readWhileRollingUp: Bool = false, previewFailure: String? = nil)
    {
        self.report = report
        self.filings = filings
        self.appFindings = appFindings
        self.commands = commands
        self.filedJSON = filedJSON
        self.rollup = rollup
        self.readWhileRollingUp = readWhileRollingUp
        self.previewFailure = previewFailure
    }

    /// The new proposals this night filed, by id: (element type, the ids they superseded).
    public var filed: [(id: Int64, elementType: String, superseded: [Int64])] {
        filings.compactMap { elementType, filing in
            if case let .filed(id, superseded) = filing { (id, elementType, superseded) } else { nil }
        }.sorted { $0.id < $1.id }
    }

    /// Each document's compact JSON text: the filed ones as stored, the others written now (on
    /// all cores); each document is written once.
    public func entriesJSON() -> [[UInt8]] {
        let indexed = Array(report.elementTypes.enumerated())
        let filed = filedJSON
        return ParallelMap.map(indexed) { index, document -> [UInt8] in
            if let text = filed[index] { return Array(text.utf8) }
            return document.jsonValue.jsonBytes
        }
    }

    /// The report as compact JSON (`RecommendReport.jsonText()`'s bytes), from `entriesJSON`.
    public func jsonText() -> String {
        String(decoding: report.compactJSON(entries: entriesJSON()), as: UTF8.self)
    }
}
