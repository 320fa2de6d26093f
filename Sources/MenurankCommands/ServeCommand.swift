import ArgumentParsing
import Dispatch
import Foundation
import Ingest
import Observability
import Postgres
import Storage
import Synchronization

/// `menurank serve`: the ingestion daemon.
extension Menurank {
    static let serveCommand = CommandSpec(
        name: "serve",
        abstract: "Run the ingestion daemon (POST /v1/events, GET /v1/menus, health, metrics).",
        discussion: """
            Receives events over HTTP and stores them in PostgreSQL; a 200 means the accepted \
            events are committed. Every option can also be set with the MENURANK_ variable named \
            after it (--max-body-bytes: MENURANK_MAX_BODY_BYTES). With port 0 a free port is \
            picked; the line `msg=listening ... port=N` on standard error gives it. SIGTERM or \
            SIGINT stops accepting, commits what was accepted, and exits 0.

            --nightly-at HH:MM runs the nightly job (what menurank recommend --all does) inside the \
            daemon at that time of day (UTC, or of --nightly-tz), instead of a cron job. With several \
            daemons on one database exactly one runs each night; a night that fails is logged and tried \
            again a minute later; a night missed while no daemon ran is run when one starts. SIGTERM \
            during a night stops it before it files anything more (filing is all or nothing per app).
            """,
        options: ServeOptions.all,
        validate: { values in
            guard ServeCommandSupport.parseListen(values[ServeOptions.listen]) != nil else {
                throw CLIError.usage("--listen must be host:port with a port 0-65535 (for example 127.0.0.1:8080 or [::1]:0)")
            }
            let proxies = ServeCommandSupport.trustedProxies(values)
            if let problem = IngestConfiguration.trustedProxyProblem(proxies) {
                throw CLIError.usage("--trusted-proxy: \(problem)")
            }
            let inFlight = values[ServeOptions.maxInFlightBodyBytes], body = values[ServeOptions.maxBodyBytes]
            if inFlight < body {
                throw CLIError.usage("--max-in-flight-body-bytes (\(inFlight)) must be at least --max-body-bytes (\(body))")
            }
            try ServeExample.validate(values)
            if let rollups = values[ServeOptions.rollupRetention], rollups < values[ServeOptions.retention] {
                throw CLIError.usage("--rollup-retention must be at least --retention (a day's rollups are rebuilt from its events)")
            }
            // A positive rate so small that one token takes longer than a day to refill is a typo.
            let rate = values[ServeOptions.rateLimit]
            if rate > 0, rate < 0.001 {
                throw CLIError.usage("--rate-limit must be 0 (no limit) or at least 0.001 requests/s, not \(rate)")
            }
            _ = try ServeCommandSupport.nightlySchedule(values)
        },
        run: { context in
            let values = context.values
            let logger = Menurank.logger(label: "menurank.serve", values: values)
            var configuration = try ServeCommandSupport.configuration(values)
            configuration.exampleSite = try ServeExample.site(values)
            let server = IngestServer(configuration: configuration, logger: logger)
            // Starting connects to PostgreSQL and shutting down waits for the writers: both block,
            // so both run on a thread of their own (see CommandDatabase).
            do {
                _ = try await BlockingThread.run { try server.start() }
            } catch {
                throw CLIError.failure("cannot start the server: \(error)", causedBy: error)
            }
            var nightly: ServeNightly?
            if let schedule = try ServeCommandSupport.nightlySchedule(values) {
                let night = ServeNightly(schedule: schedule, conninfo: try Menurank.connectionString(values), logger: logger,
                                         metrics: server.metrics, tick: ServeCommandSupport.nightlyTick(context.environment))
                night.start()
                nightly = night
            }
            await ServeCommandSupport.waitForTermination()
            // A night in progress stops before it files anything more, then the server stops.
            let running = nightly
            try await BlockingThread.run {
                running?.stop()
                server.shutdown()
            }
        })
}

/// The pieces of `serve` that are plain functions.
enum ServeCommandSupport {
    /// `host:port`, `[v6]:port` or `:port` (all interfaces).
    static func parseListen(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "0.0.0.0" }
        return (host, port)
    }

    /// The `--trusted-proxy` entries, each value split at commas.
    static func trustedProxies(_ values: ParsedValues) -> [String] {
        values[ServeOptions.trustedProxy].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func configuration(_ values: ParsedValues) throws -> IngestConfiguration {
        var configuration = IngestConfiguration()
        if let (host, port) = parseListen(values[ServeOptions.listen]) {
            configuration.host = host
            configuration.port = port
        }
        configuration.maxBodyBytes = values[ServeOptions.maxBodyBytes]
        configuration.maxEventsPerBatch = values[ServeOptions.maxEventsPerBatch]
        configuration.connectionLimit = values[ServeOptions.connectionLimit]
        configuration.connectionLimitPerAddress = values[ServeOptions.connectionLimitPerAddress]
        configuration.trustedProxies = trustedProxies(values)
        configuration.minBodyRate = values[ServeOptions.minBodyRate]
        configuration.connectionTimeout = values[ServeOptions.connectionTimeout]
        configuration.headerTimeout = values[ServeOptions.headerTimeout]
        configuration.bodyTimeout = values[ServeOptions.bodyTimeout]
        configuration.maxInFlightBodyBytes = values[ServeOptions.maxInFlightBodyBytes]
        configuration.rateLimit = values[ServeOptions.rateLimit]
        configuration.rateBurst = values[ServeOptions.rateBurst]
        configuration.retentionDays = max(1, Int(values[ServeOptions.retention].components.seconds / 86_400))
        if let rollups = values[ServeOptions.rollupRetention] {
            configuration.rollupRetentionDays = Int(rollups.components.seconds / 86_400)
        }
        configuration.skewThreshold = values[ServeOptions.skewThreshold]
        configuration.dictionaryLimits = DictionaryLimits(
            maxElementTypes: values[ServeOptions.maxElementTypes], maxCommands: values[ServeOptions.maxCommands],
            maxContexts: values[ServeOptions.maxContexts])
        configuration.ingestPoolSize = values[ServeOptions.ingestPoolSize]
        configuration.poolSize = values[ServeOptions.poolSize]
        configuration.keyCacheTTL = values[ServeOptions.keyCacheTTL]
        configuration.database = try CommandDatabase.conninfo(values)
        return configuration
    }

    /// The schedule of `--nightly-at` and `--nightly-tz`, nil without `--nightly-at`.
    /// - Throws: `CLIError.usage` for a time that is not HH:MM or a zone the system does not know.
    static func nightlySchedule(_ values: ParsedValues) throws -> ServeNightly.Schedule? {
        let zoneName = values[ServeOptions.nightlyTZ]
        guard let zone = TimeZone(identifier: zoneName) else {
            throw CLIError.usage("--nightly-tz must be a time zone such as UTC or Europe/Berlin (found \"\(zoneName)\")")
        }
        guard let text = values[ServeOptions.nightlyAt] else { return nil }
        guard let (hour, minute) = ServeNightly.Schedule.time(text) else {
            throw CLIError.usage("--nightly-at must be a time of day HH:MM, such as 03:00 (found \"\(text)\")")
        }
        return ServeNightly.Schedule(hour: hour, minute: minute, zone: zone)
    }

    /// How often the night's thread looks whether a night is due: a minute. For tests only,
    /// `MENURANK_TEST_NIGHTLY_TICK_MS` (milliseconds, 10 to 60,000), which no option or document
    /// mentions, so that a failed night is retried within the test's time.
    static func nightlyTick(_ environment: [String: String]) -> Duration {
        guard let text = environment["MENURANK_TEST_NIGHTLY_TICK_MS"], let ms = Int(text), (10...60_000).contains(ms) else {
            return .seconds(60)
        }
        return .milliseconds(ms)
    }

    /// Returns once SIGTERM or SIGINT arrives (both are then handled here, not by the default action).
    static func waitForTermination() async {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let queue = DispatchQueue(label: "menurank.signals")
        let sources = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        let resumed = ResumeOnce()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for source in sources {
                source.setEventHandler {
                    if resumed.claim() { continuation.resume() }
                }
                source.resume()
            }
        }
        sources.forEach { $0.cancel() }
    }
}

/// Lets exactly one of several signal handlers resume the waiting task.
private final class ResumeOnce: Sendable {
    private let done = Atomic<Bool>(false)

    /// True for the first caller only.
    func claim() -> Bool { !done.exchange(true, ordering: .relaxed) }
}

/// The options of `serve`, each declared once; their defaults are the daemon's own
/// (`IngestConfiguration()`), so help shows what runs.
enum ServeOptions {
    private static var defaults: IngestConfiguration { IngestConfiguration() }

    static let listen: Option<String> = .string(
        "listen", valueName: "host:port", default: "\(defaults.host):\(defaults.port)", environment: ["MENURANK_LISTEN"],
        help: "Address and port to listen on; port 0 picks a free one, an empty host means 0.0.0.0.")
    static let maxBodyBytes: Option<Int> = .int(
        "max-body-bytes", valueName: "bytes", default: defaults.maxBodyBytes, environment: ["MENURANK_MAX_BODY_BYTES"],
        range: .ints(1...Limits.maxBodyBytes), help: "Largest request body, also after gzip decompression (413 above).")
    static let maxEventsPerBatch: Option<Int> = .int(
        "max-events-per-batch", valueName: "n", default: defaults.maxEventsPerBatch,
        environment: ["MENURANK_MAX_EVENTS_PER_BATCH"], range: .ints(1...100_000), help: "Most events in one request (413 above).")
    static let connectionLimit: Option<Int> = .int(
        "connection-limit", valueName: "n", default: defaults.connectionLimit, environment: ["MENURANK_CONNECTION_LIMIT"],
        range: .ints(1...16_384), help: "Most open connections.")
    static let connectionLimitPerAddress: Option<Int> = .int(
        "connection-limit-per-address", valueName: "n", default: defaults.connectionLimitPerAddress,
        environment: ["MENURANK_CONNECTION_LIMIT_PER_ADDRESS"], range: .ints(1...16_384),
        help: "Most open connections from one IP address; more are closed at once.")
    static let trustedProxy: Option<[String]> = .repeating(
        "trusted-proxy", valueName: "address", environment: ["MENURANK_TRUSTED_PROXY"],
        help: "A reverse proxy (IP address or ADDR/BITS network; repeat it or list several: 10.0.0.2,172.16.0.0/12) "
            + "whose forwarded client address (X-Forwarded-For, Forwarded) the per-address limits use.")
    static let minBodyRate: Option<Int> = .int(
        "min-body-rate", valueName: "bytes/s", default: defaults.minBodyRate, environment: ["MENURANK_MIN_BODY_RATE"],
        range: .ints(0...(1 << 30)),
        help: "Bytes a second a request body must average from 5 s after its head on, else its connection is closed; 0: no minimum.")
    static let connectionTimeout: Option<Duration> = .duration(
        "connection-timeout", valueName: "duration", default: defaults.connectionTimeout,
        environment: ["MENURANK_CONNECTION_TIMEOUT"], range: .durations(.seconds(1)...(.seconds(3600))),
        help: "Connections on which nothing is received or sent are closed after this long.")
    static let headerTimeout: Option<Duration> = .duration(
        "header-timeout", valueName: "duration", default: defaults.headerTimeout,
        environment: ["MENURANK_HEADER_TIMEOUT"], range: .durations(.milliseconds(100)...(.seconds(3600))),
        help: "Total time for a request head, from the connection's opening or its previous response, however slowly it trickles in.")
    static let bodyTimeout: Option<Duration> = .duration(
        "body-timeout", valueName: "duration", default: defaults.bodyTimeout,
        environment: ["MENURANK_BODY_TIMEOUT"], range: .durations(.milliseconds(100)...(.seconds(3600))),
        help: "Total time for a request body, and again for the client to take the response.")
    static let maxInFlightBodyBytes: Option<Int> = .int(
        "max-in-flight-body-bytes", valueName: "bytes", default: defaults.maxInFlightBodyBytes,
        environment: ["MENURANK_MAX_IN_FLIGHT_BODY_BYTES"], range: .ints(1...(16 << 30)),
        help: "Request bodies held at once over all connections; beyond, 503 with Retry-After before the body is read. At least --max-body-bytes.")
    static let rateLimit: Option<Double> = .double(
        "rate-limit", valueName: "requests/s", default: defaults.rateLimit, environment: ["MENURANK_RATE_LIMIT"],
        range: .numbers(0...1_000_000), help: "Requests per second per API key (token bucket; 429 above); 0 means no limit.")
    static let rateBurst: Option<Double> = .double(
        "rate-burst", valueName: "requests", default: defaults.rateBurst, environment: ["MENURANK_RATE_BURST"],
        range: .numbers(1...1_000_000), help: "Requests a key may send at once after being idle.")
    static let retention: Option<Duration> = .duration(
        "retention", valueName: "duration", default: .seconds(defaults.retentionDays * 86_400),
        environment: ["MENURANK_RETENTION"], range: Limits.retention,
        help: "Events older than this are refused and their daily partitions dropped.")
    static let rollupRetention: Option<Duration?> = .duration(
        "rollup-retention", valueName: "duration", environment: ["MENURANK_ROLLUP_RETENTION"], range: Limits.retention,
        help: "Rollups of days older than this are deleted (default: kept); at least --retention.")
    static let skewThreshold: Option<Duration> = .duration(
        "skew-threshold", valueName: "duration", default: defaults.skewThreshold, environment: ["MENURANK_SKEW_THRESHOLD"],
        range: .durations(.zero...(.seconds(7 * 86_400))),
        help: "When sent_at differs from the server clock by more, event times are shifted by the difference.")
    static let maxElementTypes: Option<Int> = .int(
        "max-element-types", valueName: "n", default: defaults.dictionaryLimits.maxElementTypes,
        environment: ["MENURANK_MAX_ELEMENT_TYPES"], range: Limits.dictionarySize,
        help: "Distinct element types per app; events with a new one above are refused (too_many_element_types).")
    static let maxCommands: Option<Int> = .int(
        "max-commands", valueName: "n", default: defaults.dictionaryLimits.maxCommands,
        environment: ["MENURANK_MAX_COMMANDS"], range: Limits.dictionarySize,
        help: "Distinct commands per app; events with a new one above are refused (too_many_commands).")
    static let maxContexts: Option<Int> = .int(
        "max-contexts", valueName: "n", default: defaults.dictionaryLimits.maxContexts,
        environment: ["MENURANK_MAX_CONTEXTS"], range: Limits.dictionarySize,
        help: "Distinct contexts (app_version, platform, locale, is_test, menu_version, trigger) per app.")
    static let ingestPoolSize: Option<Int> = .int(
        "ingest-pool-size", valueName: "n", default: defaults.ingestPoolSize, environment: ["MENURANK_INGEST_POOL_SIZE"],
        range: .ints(1...64), help: "Connections (and writer threads) that store events.")
    static let poolSize: Option<Int> = .int(
        "pool-size", valueName: "n", default: defaults.poolSize, environment: ["MENURANK_POOL_SIZE"], range: .ints(1...64),
        help: "Connections for everything else (keys, dictionaries, menus, readiness).")
    static let keyCacheTTL: Option<Duration> = .duration(
        "key-cache-ttl", valueName: "duration", default: defaults.keyCacheTTL, environment: ["MENURANK_KEY_CACHE_TTL"],
        range: .durations(.zero...(.seconds(3600))),
        help: "How long a looked-up key is trusted; a revocation takes effect within it.")

    static let nightlyAt: Option<String?> = .string(
        "nightly-at", valueName: "HH:MM", environment: ["MENURANK_NIGHTLY_AT"],
        help: "Run the nightly job (recommend --all) in the daemon at this time of day; default: not at all.")
    static let nightlyTZ: Option<String> = .string(
        "nightly-tz", valueName: "zone", default: "UTC", environment: ["MENURANK_NIGHTLY_TZ"],
        help: "The time zone of --nightly-at (such as Europe/Berlin).")

    static let all: [OptionSpec] = [
        listen.spec, maxBodyBytes.spec, maxEventsPerBatch.spec, connectionLimit.spec, connectionLimitPerAddress.spec,
        trustedProxy.spec, connectionTimeout.spec, headerTimeout.spec, bodyTimeout.spec, minBodyRate.spec,
        maxInFlightBodyBytes.spec, rateLimit.spec,
        rateBurst.spec, retention.spec, rollupRetention.spec, skewThreshold.spec, maxElementTypes.spec, maxCommands.spec,
        maxContexts.spec, ingestPoolSize.spec, poolSize.spec, keyCacheTTL.spec,
        ServeExample.root.spec, ServeExample.api.spec, nightlyAt.spec, nightlyTZ.spec,
    ]
}
