import ArgumentParsing
import Foundation
import JSON
import Menus
import Nightly
import Observability
import Postgres
import Ranking
import Recommender
import Reports
import Storage

extension Menurank {
    static let recommendApp: Option<String?> = .string("app", valueName: "name", help: "Only this app.")
    static let recommendAll: Option<Bool> = .flag("all", help: "Every app with a manifest (the default).")
    static let recommendManifest: Option<String?> = .string(
        "manifest", valueName: "file", help: "Without a database: the app's manifest (needs --events).")
    static let recommendEvents: Option<String?> = .string(
        "events", valueName: "file", help: "Without a database: events as JSON Lines (needs --manifest).")
    static let recommendOut: Option<String?> = .string(
        "out", valueName: "dir", help: "Write one file per element type into this folder.")
    static let recommendDryRun: Option<Bool> = .flag("dry-run", help: "Show what would be proposed; file nothing.")
    static let recommendNotifyURL: Option<String?> = .string(
        "notify-url", valueName: "url", environment: ["MENURANK_NOTIFY_URL"],
        help: "POST each newly filed proposal (JSON with its Markdown diff) to this http(s) URL.")
    static let recommendNotifySecret: Option<String?> = .string(
        "notify-secret", valueName: "secret", environment: ["MENURANK_NOTIFY_SECRET"],
        help: "Sign each webhook delivery with this secret (header Menurank-Signature: t=UNIX,v1=HMAC-SHA256 hex).")
    static let recommendNotifyTimeout: Option<Duration> = .duration(
        "notify-timeout", valueName: "span", default: .seconds(10), environment: ["MENURANK_NOTIFY_TIMEOUT"],
        range: .durations(.milliseconds(100)...(.seconds(300))),
        help: "The deadline of one webhook attempt: connect, headers and body.")
    static let recommendFormat: Option<DocumentFormat> = .documentFormat

    /// `menurank recommend [--app NAME | --all] ...`: the nightly run.
    static let recommendCommand = CommandSpec(
        name: "recommend",
        abstract: "Roll up, rank and propose better menus (the nightly run).",
        discussion: """
            Runs the rollup, then for every element type with a current layout: its usage over the \
            window goes to the recommender, the current layout is linted with that usage, and an \
            element type whose layout should change gets a pending proposal (superseding an older \
            pending one). Nothing is filed when nothing significant changed or when the same \
            proposal is already pending (or was rejected) for the same layout, so running it twice \
            adds nothing. Exits 0 whether or not it proposed anything. --dry-run files nothing (the \
            rollup still runs). A changed proposal whose day-bootstrap stability is below \
            --min-stability is tentative: reported, not filed.

            Without a database: --manifest FILE --events FILE.jsonl runs the same ranking and \
            recommender on the manifest's menus and on events in the import format (see menurank \
            import; - reads standard input), counted in memory into the same daily aggregates, and \
            prints the same document; nothing is filed. Refused lines are reported on standard \
            error with their line number (exit status 2, after the output).

            \(PipelineSegments.discussion) A run with any of them files nothing, as with --dry-run: a \
            proposal changes the menu every user is served, so it is made from the default events. \
            Without a database the filters apply to each event, so there a person seen on two \
            platforms counts under each.
            """,
        options: [
            recommendApp.spec,
            recommendAll.spec, recommendManifest.spec, recommendEvents.spec,
        ] + PipelineWindow.options + [
            RecommendOptions.maxGroups.spec, RecommendOptions.maxGroupSize.spec, RecommendOptions.pruneShare.spec,
            RecommendOptions.pruneReach.spec, RecommendOptions.weight.spec, RecommendOptions.fallbackCost.spec,
            RecommendOptions.minStability.spec, RecommendOptions.minGainShare.spec, RecommendOptions.grouping.spec, RecommendOptions.confidence.spec,
            PipelineWindow.halfLifeOption,
        ] + PipelineSegments.options + [
            recommendFormat.spec,
            recommendOut.spec, recommendDryRun.spec, recommendNotifyURL.spec, recommendNotifySecret.spec,
            recommendNotifyTimeout.spec,
        ] + RecommendRollouts.options,
        validate: { values in
            if values[recommendAll], values[recommendApp] != nil { throw CLIError.usage("give either --app or --all") }
            if (values[recommendManifest] == nil) != (values[recommendEvents] == nil) {
                throw CLIError.usage("--manifest and --events go together (the run without a database)")
            }
            if values[recommendManifest] != nil, values[recommendAll] || values[recommendApp] != nil || values[recommendDryRun] {
                throw CLIError.usage("--manifest runs without a database: --app, --all and --dry-run do not apply")
            }
            if let url = values[recommendNotifyURL], RecommendNotifier.parse(url) == nil {
                throw CLIError.usage("--notify-url must be an http:// or https:// URL")
            }
            if let secret = values[recommendNotifySecret] {
                if values[recommendNotifyURL] == nil { throw CLIError.usage("--notify-secret signs what --notify-url sends; give both") }
                if secret.utf8.count < 16 { throw CLIError.usage("--notify-secret must be at least 16 bytes") }
            }
            try RecommendRollouts.validate(values)
        },
        run: { context in
            let values = context.values
            let window = try PipelineWindow.window(values, withHalfLife: true)
            let options = RecommendOptions.recommender(values)
            let format = values[recommendFormat]
            let segments = try PipelineSegments.filter(values)
            if let manifest = values[recommendManifest], let events = values[recommendEvents] {
                // The same job on the events held in memory; nothing is filed.
                let job = NightlyJob(window: window, options: options, filter: segments, files: false)
                let (runs, rejected, lines) = try await BlockingThread.run {
                    let loaded = try PipelineEventsFile.load(manifest: manifest, events: events, filter: segments)
                    return (try job.run(appNamed: nil, on: loaded.store), loaded.rejected, loaded.lines)
                }
                for rejection in rejected { context.console.printError(rejection.description) }
                try output(runs, format: format, values: values, context: context)
                if !rejected.isEmpty {
                    throw CLIError.exit(ExitCode(2), message: "\(rejected.count) of \(lines) lines were rejected (see above)")
                }
                return
            }
            // A look at some of the events (or at test events too) never files a proposal.
            let dryRun = values[recommendDryRun] || !segments.isDefault
            let job = NightlyJob(window: window, options: options, filter: segments, files: !dryRun)
            let app = values[recommendApp]
            let logger = Menurank.logger(label: "menurank.recommend", values: values)
            let runs = try await PipelineDatabase.runSharing(values) { connection, helper in
                do {
                    return try job.run(appNamed: app, on: PostgresNightlyStore(connection: connection, helper: helper))
                } catch let error as NightlyError {
                    throw CLIError.failure(error.description)
                }
            }
            for run in runs {
                if let failure = run.previewFailure {
                    logger.warning("reading the usage while the rollup wrote failed; reading it again after",
                                   metadata: ["app": "\(run.report.app)", "error": "\(failure)"])
                }
                logger.debug("rolled up", metadata: [
                    "app": "\(run.report.app)", "days": "\(run.rollup.days.count)",
                    "usage_read": run.readWhileRollingUp ? "while the rollup wrote" : "after the rollup",
                ])
            }
            let console = context.console
            let notifier = values[recommendNotifyURL].flatMap(RecommendNotifier.parse).map {
                RecommendNotifier(url: $0, secret: values[recommendNotifySecret].map { Array($0.utf8) },
                                  deadline: values[recommendNotifyTimeout], log: { console.printError($0) })
            }
            try output(runs, format: format, values: values, context: context)
            if let notifier {
                let failed = await notifier.deliver(runs.flatMap { RecommendNotifier.bodies(for: $0) })
                if !failed.isEmpty {
                    let list = failed.map { "#\($0.0) (\($0.1))" }.joined(separator: ", ")
                    throw CLIError.failure("the proposals were filed, but --notify-url could not be told of \(list)")
                }
            }
            try await RecommendRollouts.run(runs, dryRun: dryRun, values: values, context: context)
        })

    /// Prints the runs, or with `--out` writes one file per element type.
    private static func output(_ runs: [NightlyAppRun], format: DocumentFormat, values: ParsedValues,
                               context: CommandContext) throws
    {
        if let directory = values[recommendOut] {
            try PipelineRecommendOutput.writeFiles(runs, format: format, directory: directory, console: context.console)
        } else {
            for run in runs {
                context.console.write(PipelineRecommendOutput.render(run, format: format,
                                                                     colour: PipelineRecommendOutput.colour(context)))
            }
        }
    }
}
