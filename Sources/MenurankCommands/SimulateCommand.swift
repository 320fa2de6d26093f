import ArgumentParsing
import CivilTime
import Foundation
import JSON
import Simulation

/// `menurank simulate`: synthetic telemetry for demos, tests and the ingestion benchmark.
enum SimulateCommand {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Send realistic synthetic telemetry to a menurank daemon, or write it to a file.",
        discussion: """
            Generates selection and dismissal events: several element types, commands with a skewed \
            (Zipf-like) popularity per element type, many users in sessions, a few percent dismissals, \
            positions and latencies consistent with the menu, times spread over the past days with a \
            daily pattern, UUIDv7 ids. Command popularity and user names follow --seed; \
            the events themselves also follow the clock, so the same --seed and --now give the same \
            events (a replay: all duplicates) and a later run sends new ones.

            By default the element types and commands come from a built-in profile; --manifest takes \
            them from a menu manifest (such as examples/mail.json) so that recommendations make sense.

            Sending: through MenurankClient, the library apps link: --concurrency clients, one thread \
            and one journal each (each with --batches-in-flight requests at a time), record the events (with their generated ids and times) and deliver \
            them to URL (http://HOST:PORT), as fast as possible or at --rate events/s. Network errors, \
            429 and 503 are retried with backoff, never sooner than Retry-After, with the same event ids, \
            for at most (--max-retries + 1) x 30 s. With --pregenerate every body is encoded before the \
            timed phase and sent raw over --concurrency keep-alive connections (the ingestion \
            benchmark: the server's figure, not the load generator's); with --pregenerate --library the \
            events are made before the timed phase and sent through MenurankClient (the library's \
            figure against the raw sender's). With --raw bodies are encoded as they are sent, over the \
            same raw connections (the soak: a cheap load at a high --rate for as long as asked); \
            --raw --live stamps each batch's events as it is sent. Exits 1 when a batch was never \
            acknowledged.

            Writing: --out FILE writes the events instead (- for standard output), as JSON Lines for \
            `menurank import` or, with --out-format copy, as PostgreSQL COPY text rows with the \
            columns of the events table (dictionary ids assigned in profile order, app id --app-id).
            """,
        options: [
            url.spec, key.spec, manifest.spec, layout.spec,
            latencyBase.spec, latencyPerItem.spec, latencySubmenu.spec, events.spec, batchSize.spec, concurrency.spec,
            rate.spec, gzip.spec, pregenerate.spec, library.spec, raw.spec, live.spec, batchesInFlight.spec,
            seed.spec, users.spec, days.spec,
            now.spec,
            maxRetries.spec,
            out.spec, outFormat.spec,
            appID.spec,
            summaryFormat.spec,
        ],
        validate: { values in try validate(values) },
        run: { context in try run(context) }
    )

    // The options with defaults, each declared once; the defaults are the generator's and the
    // runner's own.
    private static var defaults: SimulationConfiguration { SimulationConfiguration() }
    static let latencyBase: Option<Double> = .double(
        "latency-base", valueName: "ms", default: defaults.latency.baseMillis, range: .numbers(0...600_000),
        help: "Latency model: time to pick the first item.")
    static let latencyPerItem: Option<Double> = .double(
        "latency-per-item", valueName: "ms", default: defaults.latency.perItemMillis, range: .numbers(0...600_000),
        help: "Latency model: time added per item scanned above the picked one.")
    static let latencySubmenu: Option<Double> = .double(
        "latency-submenu", valueName: "ms", default: defaults.latency.submenuMillis, range: .numbers(0...600_000),
        help: "Latency model: time added to open a submenu.")
    static let events: Option<Int> = .int(
        "events", short: "n", default: defaults.events, range: .ints(1...1_000_000_000), help: "Events in all.")
    static let batchSize: Option<Int> = .int(
        "batch-size", default: defaults.batchSize, range: .ints(1...100_000), help: "Events per request.")
    static let concurrency: Option<Int> = .int(
        "concurrency", short: "c", default: SimulationRunner.defaultConcurrency, range: .ints(1...1024),
        help: "Clients (or raw connections with --pregenerate or --raw), one thread each.")
    static let seed: Option<Int> = .int(
        "seed", default: Int(Int64(bitPattern: defaults.seed)), range: .ints(Int.min...Int.max),
        help: "Seed of every random choice (popularity, users, events).")
    static let users: Option<Int> = .int(
        "users", default: defaults.users, range: .ints(1...10_000_000), help: "Distinct users.")
    static let days: Option<Int> = .int(
        "days", default: defaults.days, range: .ints(1...3650), help: "Spread event times over this many past days.")
    static let maxRetries: Option<Int> = .int(
        "max-retries", default: SimulationRunner.defaultMaxRetries, range: .ints(0...100),
        help: "Retries of one batch on 429, 503 or a lost connection.")
    static let summaryFormat: Option<TextOrJSON> = .format(help: "Format of the summary.")
    static let url: Option<String?> = .string(
        "url", valueName: "url", environment: ["MENURANK_URL"], help: "Daemon to send to, as http://127.0.0.1:8080.")
    static let key: Option<String?> = .string(
        "key", valueName: "write-key", environment: ["MENURANK_WRITE_KEY"], help: "The app's write key (Bearer).")
    static let manifest: Option<String?> = .string(
        "manifest", valueName: "file", help: "Take element types and commands from this menu manifest.")
    static let layout: Option<String?> = .string(
        "layout", valueName: "file",
        help: "Show the layouts of this file (what GET /v1/menus serves, with each menu_version) "
            + "instead of the manifest's: the same people and popularity, the new positions.")
    static let rate: Option<Double?> = .double(
        "rate", valueName: "events-per-s", range: .numbers(0.001...1_000_000_000),
        help: "Send at this many events per second in all (default: as fast as possible).")
    static let gzip: Option<Bool> = .flag("gzip", help: "Compress request bodies (Content-Encoding: gzip).")
    static let pregenerate: Option<Bool> = .flag(
        "pregenerate", help: "Encode every body before sending starts (benchmark mode).")
    static let library: Option<Bool> = .flag(
        "library", help: "With --pregenerate: make every event before sending starts, and send through MenurankClient.")
    static let raw: Option<Bool> = .flag(
        "raw", help: "Send raw over --concurrency connections, each body encoded as it is sent (no library; the soak's load).")
    static let live: Option<Bool> = .flag(
        "live", help: "Live traffic: each event's id and time are stamped as it is recorded (MenurankClient) or sent (--raw), all today, ids in time order, instead of generated ids and times over --days past days.")
    static let batchesInFlight: Option<Int?> = .int(
        "batches-in-flight", range: .ints(1...64),
        help: "Through MenurankClient: requests each client has in flight at once (default: the library's, 2).")
    static let now: Option<String?> = .string(
        "now", valueName: "time",
        help: "Treat this RFC 3339 UTC time (2026-11-29T10:00:00Z) as now, for reproducible output.")
    static let out: Option<String?> = .string(
        "out", valueName: "file", help: "Write the events to FILE instead of sending them (- for stdout).")
    static let outFormat: Option<String> = .choice(
        "out-format", ["jsonl", "copy"], default: "jsonl",
        help: "Format of --out: JSON Lines, or COPY text rows of the events table.")
    static let appID: Option<Int> = .int(
        "app-id", default: 1, range: .ints(1...Int(Int32.max)), help: "The app_id column of --out-format copy rows.")

    private static func validate(_ values: ParsedValues) throws {
        // With --out nothing is sent, so --url and --key are not needed (and are ignored).
        if values[out] == nil {
            guard values[url] != nil else { throw CLIError.usage("missing --url (or --out FILE to write the events)") }
            guard values[key] != nil else { throw CLIError.usage("missing --key (the app's write key)") }
        }
        if values[layout] != nil && values[manifest] == nil {
            throw CLIError.usage("--layout needs --manifest (whose commands' popularity the new layout is shown to)")
        }
        if values[live] && (values[pregenerate] || values[out] != nil) {
            throw CLIError.usage("--live stamps events as they are recorded or sent: not with --pregenerate or --out")
        }
        if values[raw] && (values[pregenerate] || values[library] || values[out] != nil) {
            throw CLIError.usage("--raw encodes each body as it is sent: not with --pregenerate, --library or --out")
        }
        if values[library] && !values[pregenerate] {
            throw CLIError.usage("--library goes with --pregenerate (without it, simulate always sends through the library)")
        }
        if let now = values[now], SimulationTimestamp.parseRFC3339(now) == nil {
            throw CLIError.usage("--now '\(now)' is not an RFC 3339 UTC time such as 2026-11-29T10:00:00Z")
        }
    }

    private static func run(_ context: CommandContext) throws {
        let values = context.values
        var profile = try loadProfile(values[manifest])
        if let path = values[layout] {
            let bytes = try PipelineFile.read(path, what: "layouts")
            do {
                profile = try profile.showing(JSONParser.parse(bytes: Array(bytes)))
            } catch let error as SimulationError {
                throw CLIError.failure("\(path): \(error.message)")
            } catch {
                throw CLIError.failure("\(path): \(error)")
            }
        }
        var configuration = SimulationConfiguration()
        configuration.seed = UInt64(bitPattern: Int64(values[seed]))
        configuration.events = values[events]
        configuration.batchSize = values[batchSize]
        configuration.users = values[users]
        configuration.days = values[days]
        configuration.latency.baseMillis = values[latencyBase]
        configuration.latency.perItemMillis = values[latencyPerItem]
        configuration.latency.submenuMillis = values[latencySubmenu]
        configuration.now = values[now].flatMap(SimulationTimestamp.parseRFC3339)
            .map { UTCTimestamp(microsecondsSince1970: $0 * 1000) } ?? WallClock.system.now()
        let encoder = SimulationEncoder(generator: SimulationGenerator(profile: profile, configuration: configuration))

        if let out = values[out] {
            let copy = values[outFormat] == "copy"
            try SimulationFileWriter.write(encoder, to: out, copyRowsForApp: copy ? values[appID] : nil)
            return
        }

        let target: SimulationTarget
        do { target = try SimulationTarget(url: values[url] ?? "") } catch {
            throw CLIError.usage(error.message)
        }
        var runner = SimulationRunner(encoder: encoder, target: target, key: values[key] ?? "")
        runner.concurrency = values[concurrency]
        runner.rate = values[rate]
        runner.gzip = values[gzip]
        runner.pregenerate = values[pregenerate]
        runner.library = values[library]
        runner.raw = values[raw]
        runner.live = values[live]
        runner.batchesInFlight = values[batchesInFlight]
        runner.maxRetries = values[maxRetries]
        let summary = try runner.run()
        if values[summaryFormat] == .json {
            context.console.print(summary.json.jsonText)
        } else {
            context.console.write(summary.text)
        }
        if summary.batchesFailed > 0 {
            throw CLIError.failure("\(summary.batchesFailed) of \(summary.batches) batches were not acknowledged")
        }
    }

    private static func loadProfile(_ path: String?) throws -> SimulationProfile {
        guard let path else { return .builtIn }
        let bytes = try PipelineFile.read(path, what: "manifest")
        do {
            return try SimulationProfile.fromManifest(JSONParser.parse(bytes: Array(bytes)))
        } catch let error as SimulationError {
            throw CLIError.failure("\(path): \(error.message)")
        } catch {
            throw CLIError.failure("\(path): \(error)")
        }
    }
}
