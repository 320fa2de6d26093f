import ArgumentParsing
import Dispatch
import Foundation
import Ingest
import Observability
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
            """,
        options: [
            .option("listen", valueName: "host:port", default: "127.0.0.1:8080", environment: ["MENURANK_LISTEN"],
                    help: "Address and port to listen on; port 0 picks a free one, an empty host means 0.0.0.0."),
            .option("max-body-bytes", .int, valueName: "bytes", default: "4194304", environment: ["MENURANK_MAX_BODY_BYTES"],
                    range: .ints(1...Limits.maxBodyBytes),
                    help: "Largest request body, also after gzip decompression (413 above)."),
            .option("max-events-per-batch", .int, valueName: "n", default: "1000",
                    environment: ["MENURANK_MAX_EVENTS_PER_BATCH"], range: .ints(1...100_000), help: "Most events in one request (413 above)."),
            .option("connection-limit", .int, valueName: "n", default: "1024", environment: ["MENURANK_CONNECTION_LIMIT"],
                    range: .ints(1...16_384),
                    help: "Most open connections."),
            .option("connection-limit-per-address", .int, valueName: "n", default: "64",
                    environment: ["MENURANK_CONNECTION_LIMIT_PER_ADDRESS"], range: .ints(1...16_384),
                    help: "Most open connections from one IP address; more are closed at once."),
            .option("connection-timeout", .duration, valueName: "duration", default: "30s",
                    environment: ["MENURANK_CONNECTION_TIMEOUT"], range: .durations(.seconds(1)...(.seconds(3600))),
                    help: "Connections on which nothing is received or sent are closed after this long."),
            .option("header-timeout", .duration, valueName: "duration", default: "15s",
                    environment: ["MENURANK_HEADER_TIMEOUT"], range: .durations(.milliseconds(100)...(.seconds(3600))),
                    help: "Total time for a request head, from the connection's opening or its previous response, however slowly it trickles in."),
            .option("body-timeout", .duration, valueName: "duration", default: "60s",
                    environment: ["MENURANK_BODY_TIMEOUT"], range: .durations(.milliseconds(100)...(.seconds(3600))),
                    help: "Total time for a request body, and again for the client to take the response."),
            .option("max-in-flight-body-bytes", .int, valueName: "bytes", default: "67108864",
                    environment: ["MENURANK_MAX_IN_FLIGHT_BODY_BYTES"], range: .ints(1...(16 << 30)),
                    help: "Request bodies held at once over all connections; beyond, 503 with Retry-After before the body is read. At least --max-body-bytes."),
            .option("rate-limit", .double, valueName: "requests/s", default: "0", environment: ["MENURANK_RATE_LIMIT"],
                    range: .numbers(0...1_000_000),
                    help: "Requests per second per API key (token bucket; 429 above); 0 means no limit."),
            .option("rate-burst", .double, valueName: "requests", default: "100", environment: ["MENURANK_RATE_BURST"],
                    range: .numbers(1...1_000_000),
                    help: "Requests a key may send at once after being idle."),
            .option("retention", .duration, valueName: "duration", default: "90d", environment: ["MENURANK_RETENTION"],
                    range: Limits.retention,
                    help: "Events older than this are refused and their daily partitions dropped."),
            .option("rollup-retention", .duration, valueName: "duration", environment: ["MENURANK_ROLLUP_RETENTION"],
                    range: Limits.retention,
                    help: "Rollups of days older than this are deleted (default: kept); at least --retention."),
            .option("skew-threshold", .duration, valueName: "duration", default: "60s",
                    environment: ["MENURANK_SKEW_THRESHOLD"], range: .durations(.zero...(.seconds(7 * 86_400))),
                    help: "When sent_at differs from the server clock by more, event times are shifted by the difference."),
            .option("max-element-types", .int, valueName: "n", default: "1000", environment: ["MENURANK_MAX_ELEMENT_TYPES"],
                    range: Limits.dictionarySize,
                    help: "Distinct element types per app; events with a new one above are refused (too_many_element_types)."),
            .option("max-commands", .int, valueName: "n", default: "10000", environment: ["MENURANK_MAX_COMMANDS"],
                    range: Limits.dictionarySize,
                    help: "Distinct commands per app; events with a new one above are refused (too_many_commands)."),
            .option("max-contexts", .int, valueName: "n", default: "10000", environment: ["MENURANK_MAX_CONTEXTS"],
                    range: Limits.dictionarySize,
                    help: "Distinct contexts (app_version, platform, locale, is_test, menu_version, trigger) per app."),
            .option("ingest-pool-size", .int, valueName: "n", default: "2", environment: ["MENURANK_INGEST_POOL_SIZE"],
                    range: .ints(1...64),
                    help: "Connections (and writer threads) that store events."),
            .option("pool-size", .int, valueName: "n", default: "4", environment: ["MENURANK_POOL_SIZE"],
                    range: .ints(1...64),
                    help: "Connections for everything else (keys, dictionaries, menus, readiness)."),
            .option("key-cache-ttl", .duration, valueName: "duration", default: "5s", environment: ["MENURANK_KEY_CACHE_TTL"],
                    range: .durations(.zero...(.seconds(3600))),
                    help: "How long a looked-up key is trusted; a revocation takes effect within it."),
        ],
        validate: { values in
            guard let listen = values.string("listen"), ServeCommandSupport.parseListen(listen) != nil else {
                throw CLIError.usage("--listen must be host:port with a port 0-65535 (for example 127.0.0.1:8080 or [::1]:0)")
            }
            if let inFlight = values.int("max-in-flight-body-bytes"), let body = values.int("max-body-bytes"), inFlight < body {
                throw CLIError.usage("--max-in-flight-body-bytes (\(inFlight)) must be at least --max-body-bytes (\(body))")
            }
            if let rollups = values.duration("rollup-retention"), rollups < (values.duration("retention") ?? .seconds(90 * 86_400)) {
                throw CLIError.usage("--rollup-retention must be at least --retention (a day's rollups are rebuilt from its events)")
            }
            // A positive rate so small that one token takes longer than a day to refill is a typo.
            if let rate = values.double("rate-limit"), rate > 0, rate < 0.001 {
                throw CLIError.usage("--rate-limit must be 0 (no limit) or at least 0.001 requests/s, not \(rate)")
            }
        },
        run: { context in
            let values = context.values
            let logger = Menurank.logger(label: "menurank.serve", values: values)
            let configuration = ServeCommandSupport.configuration(values)
            let server = IngestServer(configuration: configuration, logger: logger)
            do {
                try server.start()
            } catch {
                throw CLIError.failure("cannot start the server: \(error)", causedBy: error)
            }
            await ServeCommandSupport.waitForTermination()
            server.shutdown()
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

    static func configuration(_ values: ParsedValues) -> IngestConfiguration {
        var configuration = IngestConfiguration()
        if let (host, port) = parseListen(values.string("listen") ?? "") {
            configuration.host = host
            configuration.port = port
        }
        configuration.maxBodyBytes = values.int("max-body-bytes") ?? configuration.maxBodyBytes
        configuration.maxEventsPerBatch = values.int("max-events-per-batch") ?? configuration.maxEventsPerBatch
        configuration.connectionLimit = values.int("connection-limit") ?? configuration.connectionLimit
        configuration.connectionLimitPerAddress = values.int("connection-limit-per-address") ?? configuration.connectionLimitPerAddress
        configuration.connectionTimeout = values.duration("connection-timeout") ?? configuration.connectionTimeout
        configuration.headerTimeout = values.duration("header-timeout") ?? configuration.headerTimeout
        configuration.bodyTimeout = values.duration("body-timeout") ?? configuration.bodyTimeout
        configuration.maxInFlightBodyBytes = values.int("max-in-flight-body-bytes") ?? configuration.maxInFlightBodyBytes
        configuration.rateLimit = values.double("rate-limit") ?? configuration.rateLimit
        configuration.rateBurst = values.double("rate-burst") ?? configuration.rateBurst
        if let retention = values.duration("retention") {
            configuration.retentionDays = max(1, Int(retention.components.seconds / 86_400))
        }
        if let rollups = values.duration("rollup-retention") {
            configuration.rollupRetentionDays = Int(rollups.components.seconds / 86_400)
        }
        configuration.skewThreshold = values.duration("skew-threshold") ?? configuration.skewThreshold
        configuration.dictionaryLimits = DictionaryLimits(
            maxElementTypes: values.int("max-element-types") ?? 1_000,
            maxCommands: values.int("max-commands") ?? 10_000,
            maxContexts: values.int("max-contexts") ?? 10_000)
        configuration.ingestPoolSize = values.int("ingest-pool-size") ?? configuration.ingestPoolSize
        configuration.poolSize = values.int("pool-size") ?? configuration.poolSize
        configuration.keyCacheTTL = values.duration("key-cache-ttl") ?? configuration.keyCacheTTL
        configuration.database = CommandDatabase.conninfo(values)
        return configuration
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
