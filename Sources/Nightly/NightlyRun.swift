public import Menus
public import Ranking
public import Recommender
public import Reports
import Locking

/// The nightly use case (DESIGN.md, "Recommendation"), shared by the database path
/// (`menurank recommend`, the rollups) and the database-free one (`recommend --manifest --events`):
/// daily usage and the current menus in, proposal documents out. Knows nothing of PostgreSQL or of
/// the command line.
///
/// For one app:
/// 1. each element type's activity (`ElementTypeActivity`: per-day selections and user-days, the
///    window's reach) is ranked (`Ranker`);
/// 2. each element type with a current menu gets the recommender's proposal (user-days, reach and
///    the menu's people) and the lint findings of its current menu with that usage;
/// 3. only for the proposals that change the menu, the stability of each step of the ladder is
///    computed by resampling people (the window's use split by person bucket, which comes with
///    the usage): below `minStability` a proposal is tentative, reported and not filed. A night
///    that changes little resamples little;
/// 4. every element type becomes a `ProposalDocument` (without a proposal id: filing is the
///    caller's), and element types used but not declared become HIG-1 findings of the app.
///
/// Concurrency: `run` is synchronous and blocks its caller until the night is done, so it is
/// called from a thread of its own (the database path's `BlockingThread.run`), never from the
/// cooperative pool's. Element types are independent, so the ranking and steps 2 to 4 run on all
/// cores (`ParallelMap`: contiguous slices on threads of our own, forked and joined; pure work,
/// no I/O). The callback (`recordedStability`) runs on the calling thread; while
/// `recordedStability` waits (on the database, say), the lint of every menu runs on other threads.
public struct NightlyRun: Sendable {
    public var window: RankingWindow
    public var options: Recommender.Options

    public init(window: RankingWindow, options: Recommender.Options) {
        self.window = window
        self.options = options
    }

    /// Runs the night for one app.
    /// - Parameters:
    ///   - manifest: the app's manifest whose `menus` are the current menus to propose for.
    ///   - activities: what the daily usage holds for the window, one per element type with use.
    ///   - recordedStability: for changed proposals (element type -> proposed layout), the
    ///     stability recorded with an identical proposal already on file, by element type; those
    ///     are not resampled again (a night that proposes what is on file files nothing, so its
    ///     stability is not computed twice).
    public func run(app: String, manifest: Manifest, activities: [ElementTypeActivity],
                    recordedStability: ([String: Layout]) throws -> [String: [LadderStep.Kind: Double]] = { _ in [:] }) rethrows
        -> NightlyOutcome
    {
        let ranker = Ranker(window: window, confidence: options.confidence)
        var ranked: [String: ElementTypeUsage] = [:]
        for usage in ParallelMap.map(activities, { ranker.rank($0) }) { ranked[usage.elementType] = usage }
        let usages = ranked
        let menuUsage = Self.menuUsage(usages)
        let recommender = Recommender(options: options)
        let linter = ManifestLinter(options: LintOptions(maxGroups: options.maxGroups, maxGroupSize: options.maxGroupSize))
        let commands = manifest.commands
        let categories = manifest.categories
        let together = manifest.together
        let menus = manifest.menus

        let elementTypes = menus.keys.sorted()
        var proposals = ParallelMap.map(elementTypes) { elementType -> Proposal in
            let usage = usages[elementType]
            return recommender.recommend(current: menus[elementType]!, commands: commands,
                                         usage: usage?.usageCounts ?? [:], menuUsers: usage?.users ?? 0,
                                         categories: categories, together: together)
        }

        // The lint of every current menu with its usage does not depend on what is on file, so it
        // runs on other threads while the changed proposals are looked up.
        let lintAll = { @Sendable () -> [[LintFinding]] in
            ParallelMap.map(elementTypes) { elementType in
                LintReport(findings: linter.lint(elementType: elementType, menu: menus[elementType]!, commands: commands,
                                                 together: together,
                                                 usage: menuUsage[elementType] ?? ElementUsage(opens: 0))).findings
            }
        }
        var changed = elementTypes.indices.filter { proposals[$0].changed }
        let findings: [[LintFinding]]
        if changed.isEmpty {
            findings = lintAll()
        } else {
            let proposed = Dictionary(uniqueKeysWithValues: changed.map { (elementTypes[$0], proposals[$0].layout) })
            let recorded: [String: [LadderStep.Kind: Double]]
            (recorded, findings) = try ForkJoin.both({ try recordedStability(proposed) }, meanwhile: lintAll)
            for index in changed {
                if let stability = recorded[elementTypes[index]] {
                    proposals[index].assess(stabilities: stability, minimum: options.minStability)
                }
            }
            changed = changed.filter { recorded[elementTypes[$0]] == nil }
        }
        if !changed.isEmpty {
            let bootstraps = ParallelMap.map(changed, minimumPerThread: 4) { index -> Recommender.Bootstrap in
                let elementType = elementTypes[index]
                let usage = usages[elementType]
                return recommender.bootstrap(current: menus[elementType]!, commands: commands,
                                             usage: usage?.usageCounts ?? [:], menuUsers: usage?.users ?? 0,
                                             categories: categories, together: together)
            }
            let stabilities = Self.stabilities(bootstraps, cores: ParallelMap.cores)
            for (index, stability) in zip(changed, stabilities) {
                proposals[index].assess(stabilities: stability, minimum: options.minStability)
            }
        }

        let confidence = options.confidence
        let assessed = proposals
        let documents = ParallelMap.map(Array(elementTypes.indices)) { index -> ProposalDocument in
            let elementType = elementTypes[index]
            var lint = findings[index]
            if let note = assessed[index].shapeNote {
                // The shape the regroup step could not reach: what would have to leave (HIG-2).
                lint.append(LintFinding(rule: .hig2, severity: .info, elementType: elementType,
                                        path: .menu(elementType), message: note))
            }
            return ProposalDocument(elementType: elementType, current: menus[elementType]!.layout,
                                    proposal: assessed[index], usage: usages[elementType], lint: lint,
                                    confidence: confidence,
                                    userDays: Dictionary((usages[elementType]?.commands ?? []).map {
                                        ($0.command, Double($0.userDays))
                                    }, uniquingKeysWith: { first, _ in first }))
        }
        let toFile = Set(elementTypes.indices.filter { proposals[$0].changed && !proposals[$0].tentative }
            .map { elementTypes[$0] })

        // HIG-1 for element types used but not declared: the manifest lint of those alone (the
        // declared ones were linted above, one by one).
        var undeclared = MenuUsage()
        for (elementType, use) in menuUsage.elements where menus[elementType] == nil {
            undeclared.elements[elementType] = use
        }
        var bare = manifest
        bare.menus = [:]
        let appFindings = undeclared.elements.isEmpty ? [] : linter.lint(bare, usage: undeclared).findings.filter {
            $0.rule == .hig1 && menus[$0.elementType ?? ""] == nil
        }
        return NightlyOutcome(report: RecommendReport(app: app, window: window, elementTypes: documents),
                              appFindings: appFindings, toFile: toFile)
    }

    /// Each bootstrap's stability, on all cores. A night usually changes few proposals, often one,
    /// whose resampling alone would then run on one core: with fewer element types than twice the
    /// cores, each one's rounds are cut into parts counted on their own and added up (the same
    /// stability, bit for bit: `Recommender.Bootstrap`); with more, each element type is one part.
    static func stabilities(_ bootstraps: [Recommender.Bootstrap], cores: Int) -> [[LadderStep.Kind: Double]] {
        guard !bootstraps.isEmpty else { return [] }
        let rounds = bootstraps[0].rounds
        let parts = bootstraps.count >= 2 * cores ? 1 : min(rounds, (2 * cores + bootstraps.count - 1) / bootstraps.count)
        var pieces: [(bootstrap: Int, rounds: Range<Int>)] = []
        for index in bootstraps.indices {
            for part in 0..<parts { pieces.append((index, rounds * part / parts..<rounds * (part + 1) / parts)) }
        }
        let votes = ParallelMap.map(pieces, minimumPerThread: parts == 1 ? 4 : 1) { piece in
            bootstraps[piece.bootstrap].votes(rounds: piece.rounds)
        }
        var total = [[Int]](repeating: [Int](repeating: 0, count: LadderStep.Kind.allCases.count), count: bootstraps.count)
        for (piece, counts) in zip(pieces, votes) {
            for (step, count) in counts.enumerated() { total[piece.bootstrap][step] += count }
        }
        return zip(bootstraps, total).map { $0.stability(votes: $1) }
    }

    /// What lint's usage rules (HIG-1, HIG-5) read: per element type its raw selections per command
    /// and its menu opens (selections plus dismissals).
    public static func menuUsage(_ usages: [String: ElementTypeUsage]) -> MenuUsage {
        var usage = MenuUsage()
        for (elementType, ranked) in usages {
            var selections: [String: Int] = [:]
            for command in ranked.commands where command.selections > 0 { selections[command.command] = command.selections }
            usage[elementType] = ElementUsage(selections: selections, dismissals: ranked.dismissals)
        }
        return usage
    }
}

/// What a night gives for one app.
public struct NightlyOutcome: Sendable {
    /// Every element type with a current menu, by name, without proposal ids.
    public var report: RecommendReport
    /// Lint findings about the app as a whole (HIG-1: element types used without a declared menu).
    public var appFindings: [LintFinding]
    /// The element types whose proposal changes the menu and is not tentative: what may be filed.
    public var toFile: Set<String>

    public init(report: RecommendReport, appFindings: [LintFinding], toFile: Set<String>) {
        self.report = report
        self.appFindings = appFindings
        self.toFile = toFile
    }
}
