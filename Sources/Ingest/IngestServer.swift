import CivilTime
import Events
import Foundation
public import Observability
import HTTP
import Locking
import Postgres
import Storage
import Synchronization

/// The ingestion daemon: the HTTP API on libmicrohttpd (one thread per connection, so 32
/// keep-alive clients stay spread over 32 threads instead of sticking to a few pool threads), the
/// group-commit writer with its own connections, the general pool for keys, dictionaries, menus
/// and readiness, and partition maintenance.
///
/// ```swift
/// let server = IngestServer(configuration: config, logger: logger)
/// let port = try server.start()
/// ...
/// server.shutdown()   // stop accepting, finish and commit what was accepted
/// ```
public final class IngestServer: Sendable {
    static let eventsRoute = "/v1/events"

    public let configuration: IngestConfiguration
    public let metrics: MetricsRegistry
    private let logger: Logger
    private let generalPool: PostgresPool
    private let writer: EventWriter
    private let partitions: PartitionManager
    private let ingestMetrics: IngestMetrics
    private let http: HTTPServer
    private let stopping = Atomic<Bool>(false)
    /// Wakes the maintainer: at shutdown, or when a writer met a day without a partition.
    private let maintenanceSignal = DispatchSemaphore(value: 0)
    private let maintenanceRequested = Atomic<Bool>(false)
    /// Signalled when the maintenance thread has returned (shutdown waits for it, so that no
    /// maintenance runs once the daemon has stopped).
    private let maintenanceStopped = DispatchSemaphore(value: 0)
    private let maintenanceStarted = Atomic<Bool>(false)

    public init(configuration: IngestConfiguration, logger: Logger, metrics: MetricsRegistry = MetricsRegistry()) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        ingestMetrics = IngestMetrics(registry: metrics)
        var parameters = configuration.databaseParameters
        parameters["connect_timeout"] = parameters["connect_timeout"] ?? "3"
        parameters["application_name"] = parameters["application_name"] ?? "menurank-serve"
        generalPool = PostgresPool(configuration: .init(
            conninfo: configuration.database, parameters: parameters, maxConnections: max(1, configuration.poolSize),
            leaseTimeout: .seconds(3)))
        let policy = EventPolicy(skewThreshold: Self.micros(configuration.skewThreshold),
                                 maxFuture: Self.micros(configuration.maxFuture),
                                 retention: Int64(configuration.retentionDays) * EventPolicy.dayMicroseconds)
        // One retention window for what is accepted and what maintenance drops; no DDL on requests.
        partitions = PartitionManager(window: policy.window!, createOnDemand: false)
        var ingestParameters = parameters
        ingestParameters["application_name"] = "menurank-ingest"
        let database = configuration.database
        let writerParameters = ingestParameters
        writer = EventWriter(
            configuration: .init(
                connect: { try PostgresConnection(database, parameters: writerParameters) },
                writers: configuration.ingestPoolSize, maxRowsPerTransaction: configuration.maxRowsPerTransaction),
            partitions: partitions, observer: WriterObserver(metrics: ingestMetrics, logger: logger))

        let retryAfter = configuration.unavailableRetryAfter
        let store = AppStore(pool: generalPool)
        let keyCache = KeyCache(ttl: configuration.keyCacheTTL, missRate: configuration.unknownKeyLookupRate,
                                missBurst: configuration.unknownKeyLookupBurst) { text throws(StorageError) in
            try store.lookup(key: text)
        }
        let authenticator = Authenticator(keys: keyCache, retryAfter: retryAfter)
        let limits = EventLimits(maxEvents: configuration.maxEventsPerBatch)
        let events = EventsEndpoint(
            authenticator: authenticator,
            limiter: RateLimiter(rate: configuration.rateLimit, burst: configuration.rateBurst),
            decoder: EventBatchDecoder(limits: limits),
            policy: policy,
            preparer: EventPreparer(dictionaries: Dictionaries(pool: generalPool, limits: configuration.dictionaryLimits)),
            writer: writer, maxBodyBytes: configuration.maxBodyBytes, retryAfter: retryAfter,
            metrics: ingestMetrics, clock: configuration.clock)
        let menus = MenusEndpoint(authenticator: authenticator, reader: MenuReader(pool: generalPool),
                                  retryAfter: retryAfter)

        var handler = IngestHandler(metrics: ingestMetrics, logger: logger)
        handler.crossOrigin = CrossOrigin(directory: OriginDirectory(ttl: configuration.keyCacheTTL) { () throws(StorageError) in
            try store.allAllowedOrigins()
        })
        handler.add("POST", Self.eventsRoute, admit: { head in events.admit(head) }) { request, _ in events.handle(request) }
        handler.add("GET", "/v1/menus") { request, _ in menus.handle(request, elementType: nil) }
        handler.add("GET", "/v1/menus/:element_type") { request, parameters in
            menus.handle(request, elementType: parameters["element_type"])
        }
        let tokenStore = TokenStore(pool: generalPool)
        let adminTokens = AdminTokenGate(ttl: configuration.keyCacheTTL, missRate: configuration.unknownKeyLookupRate,
                                         missBurst: configuration.unknownKeyLookupBurst) { text throws(StorageError) in
            try tokenStore.lookup(token: text)
        }
        handler.addAdminRoutes(pool: generalPool, tokens: adminTokens, retryAfter: retryAfter, clock: configuration.clock)
        if let site = configuration.exampleSite {
            handler.add("GET", "/example") { _, _ in
                RequestOutcome(HTTPResponse(status: 308, headers: ["Location": "/example/"]))
            }
            handler.add("GET", "/example/") { _, _ in RequestOutcome(site.response(for: nil)) }
            handler.add("GET", "/example/:file") { _, parameters in RequestOutcome(site.response(for: parameters["file"])) }
        }
        handler.add("GET", "/healthz") { _, _ in
            RequestOutcome(.json(body: #"{"status":"ok"}"#))
        }
        let pool = generalPool
        let writer = self.writer
        handler.add("GET", "/readyz") { _, _ in
            // Ready when a query answers on a writable primary and the last writes were not refused
            // (a full disk, too many connections, ...: a SELECT may still answer then).
            guard let problem = pool.writeReadiness() ?? writer.recentFault() else {
                return RequestOutcome(.json(body: #"{"status":"ready"}"#))
            }
            return RequestOutcome(IngestError.notReady(problem, retryAfter: retryAfter))
        }
        let registry = metrics
        let ingestMetrics = self.ingestMetrics
        let httpBox = ServerBox()
        handler.add("GET", "/metrics") { _, _ in
            ingestMetrics.generalPoolInUse.set(Double(pool.statistics.inUse))
            ingestMetrics.ingestPoolInUse.set(Double(writer.connectionsInUse))
            ingestMetrics.writerQueue.set(Double(writer.queuedRows))
            let keys = keyCache.statistics
            ingestMetrics.keyQueries.set(Double(keys.queries))
            ingestMetrics.keyThrottled.set(Double(keys.throttled))
            let tokens = adminTokens.statistics
            ingestMetrics.tokenQueries.set(Double(tokens.queries))
            ingestMetrics.tokenThrottled.set(Double(tokens.throttled))
            let (known, unknown) = keyCache.counts
            ingestMetrics.keyCacheKnown.set(Double(known))
            ingestMetrics.keyCacheUnknown.set(Double(unknown))
            if let http = httpBox.server {
                ingestMetrics.openConnections.set(Double(http.openConnections))
                ingestMetrics.expiredConnections.set(Double(http.expiredConnections))
                ingestMetrics.slowBodyConnections.set(Double(http.slowBodyConnections))
                ingestMetrics.refusedConnections.set(Double(http.refusedConnections))
                ingestMetrics.bodyBytesInFlight.set(Double(http.bodyBytesInFlight))
            }
            return RequestOutcome(.text(registry.render(), headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"]))
        }
        http = HTTPServer(
            configuration: .init(host: configuration.host, port: configuration.port,
                                 maxBodyBytes: configuration.maxBodyBytes, connectionLimit: configuration.connectionLimit,
                                 connectionLimitPerAddress: configuration.connectionLimitPerAddress,
                                 connectionTimeout: configuration.connectionTimeout,
                                 headerTimeout: configuration.headerTimeout, bodyTimeout: configuration.bodyTimeout,
                                 maxInFlightBodyBytes: configuration.maxInFlightBodyBytes,
                                 busyRetryAfter: configuration.unavailableRetryAfter,
                                 threading: .threadPerConnection, trustedProxies: configuration.trustedProxies,
                                 minBodyRate: configuration.minBodyRate),
            handler: handler)
        httpBox.server = http
    }

    /// Maintains partitions (when PostgreSQL answers), starts the writers and the HTTP server, and
    /// returns the bound port. Logs `msg=listening ... port=N`.
    @discardableResult
    public func start() throws -> UInt16 {
        // Closing days can take a while (a rewrite per day): the maintenance thread does it.
        runMaintenance(closingDays: false)
        partitions.onMissingPartition { [weak self] in self?.requestMaintenance() }
        writer.start()
        let port = try http.start()
        maintenanceStarted.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            maintenanceLoop()
            maintenanceStopped.signal()
        }
        thread.name = "menurank-maintenance"
        thread.start()
        // Always written, whatever the log level: scripts and tests read the real port from it.
        var announcer = logger
        if !announcer.isEnabled(.notice) { announcer.level = .notice }
        announcer.notice("listening", metadata: ["host": .string(configuration.host), "port": .int(Int(port))])
        return port
    }

    /// The bound port while running.
    public var port: UInt16 { http.port }

    /// Stops accepting connections, lets requests in flight finish (their events are committed
    /// and answered), then stops the writers and closes the pools. Safe to call twice.
    public func shutdown() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        logger.notice("shutting down", metadata: ["in_flight": .int(http.inFlightRequests)])
        let drained = http.shutdown(gracePeriod: configuration.shutdownGrace)
        writer.shutdown()
        maintenanceSignal.signal()
        // Maintenance stops between steps (between two days it closes, at most one day's rewrite).
        if maintenanceStarted.load(ordering: .relaxed) { maintenanceStopped.wait() }
        generalPool.close()
        logger.notice("stopped", metadata: ["drained": .bool(drained)])
    }

    private func requestMaintenance() {
        if !maintenanceRequested.exchange(true, ordering: .relaxed) { maintenanceSignal.signal() }
    }

    /// Runs maintenance hourly, at once when a writer met a missing day, and soon again after a
    /// failure (PostgreSQL down, or a partition that could not take its lock).
    private func maintenanceLoop() {
        var interval = configuration.maintenanceInterval
        if !stopping.load(ordering: .relaxed), !closeDays() {
            interval = min(configuration.maintenanceInterval, .seconds(30))
        }
        while true {
            _ = maintenanceSignal.wait(timeout: .now() + Self.seconds(interval))
            if stopping.load(ordering: .relaxed) { return }
            maintenanceRequested.store(false, ordering: .relaxed)
            interval = runMaintenance() ? configuration.maintenanceInterval : min(configuration.maintenanceInterval, .seconds(30))
        }
    }

    /// Creates partitions ahead and drops expired ones, then (`closingDays`) closes the days before
    /// yesterday; false when PostgreSQL did not answer.
    @discardableResult
    private func runMaintenance(closingDays: Bool = true) -> Bool {
        do {
            let (created, dropped) = try generalPool.withConnection { connection in
                try partitions.maintain(on: connection, today: configuration.clock.now().day)
            }
            logger.info("partitions maintained", metadata: ["created": .int(created), "dropped": .int(dropped),
                                                            "retention_days": .int(configuration.retentionDays)])
            if let days = configuration.rollupRetentionDays {
                let firstKept = configuration.clock.now().day.adding(days: -days)
                let dropped = try generalPool.withConnection { connection in
                    try PrivacyStore().dropRollups(before: firstKept, on: connection)
                }
                if dropped > 0 { logger.info("rollups dropped", metadata: ["rows": .int(dropped), "rollup_retention_days": .int(days)]) }
            }
            return closingDays ? closeDays() : true
        } catch {
            ingestMetrics.databaseError(kind: "maintenance").increment()
            logger.warning("partition maintenance failed; will retry", metadata: ["error": .string(String(reflecting: error))])
            return false
        }
    }

    /// Closes the days before yesterday that are still open (`PartitionManager.close`, sql/0015);
    /// false when it failed.
    private func closeDays() -> Bool {
        do {
            let closed = try generalPool.withConnection { connection in
                try partitions.close(on: connection, today: configuration.clock.now().day,
                                     while: { !self.stopping.load(ordering: .relaxed) })
            }
            if let first = closed.first, let last = closed.last {
                logger.info("days closed", metadata: ["days": .int(closed.count),
                                                      "first": .string(first.description), "last": .string(last.description)])
            }
            return true
        } catch {
            ingestMetrics.databaseError(kind: "maintenance").increment()
            logger.warning("closing days failed; will retry", metadata: ["error": .string(String(reflecting: error))])
            return false
        }
    }

    static func micros(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Lets the `/metrics` route, made before the HTTP server, read the server's figures (weakly: the
/// server owns the route).
private final class ServerBox: Sendable {
    private struct Reference {
        weak var server: HTTPServer?
    }

    private let stored = Locked(Reference())

    var server: HTTPServer? {
        get { stored.withLock { $0.server } }
        set { stored.withLock { $0.server = newValue } }
    }
}
