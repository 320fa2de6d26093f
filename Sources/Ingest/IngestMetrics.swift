import Observability
import Locking

/// The daemon's metrics, registered once; the hot path only bumps handles.
final class IngestMetrics: Sendable {
    let registry: MetricsRegistry
    let http: HTTPServerMetrics
    let accepted: Counter
    let duplicates: Counter
    let batchSize: Histogram
    let transactionRows: Histogram
    let commitSeconds: Histogram
    let generalPoolInUse: Gauge
    let ingestPoolInUse: Gauge
    let writerQueue: Gauge
    let databaseUp: Gauge
    let keyQueries: Gauge
    let keyThrottled: Gauge
    let tokenQueries: Gauge
    let tokenThrottled: Gauge
    let keyCacheKnown: Gauge
    let keyCacheUnknown: Gauge
    let openConnections: Gauge
    let expiredConnections: Gauge
    let slowBodyConnections: Gauge
    let refusedConnections: Gauge
    let bodyBytesInFlight: Gauge
    private let handles = Locked<[String: Counter]>([:])

    init(registry: MetricsRegistry) {
        self.registry = registry
        http = HTTPServerMetrics(registry: registry)
        accepted = registry.counter("menurank_events_accepted", help: "Events stored.")
        duplicates = registry.counter("menurank_events_duplicate",
                                      help: "Events received again (same app and id) and not stored twice.")
        batchSize = registry.histogram("menurank_ingest_batch_events", help: "Events per POST /v1/events request.",
                                       buckets: [1, 10, 50, 100, 250, 500, 1000, 2500, 5000])
        transactionRows = registry.histogram("menurank_writer_transaction_rows",
                                             help: "Rows committed per writer transaction (group commit).",
                                             buckets: [1, 10, 100, 500, 1000, 2500, 5000, 10_000, 20_000, 50_000])
        commitSeconds = registry.histogram("menurank_writer_transaction_duration_seconds",
                                           help: "Duration of writer transactions.")
        generalPoolInUse = registry.gauge("menurank_db_pool_connections_in_use",
                                          help: "Database connections in use.", labels: ["pool": "general"])
        ingestPoolInUse = registry.gauge("menurank_db_pool_connections_in_use",
                                         help: "Database connections in use.", labels: ["pool": "ingest"])
        writerQueue = registry.gauge("menurank_writer_queued_rows", help: "Rows waiting for a writer transaction.")
        databaseUp = registry.gauge("menurank_database_up", help: "1 while PostgreSQL answers the writers, else 0.")
        databaseUp.set(1)
        keyQueries = registry.gauge("menurank_key_lookup_queries",
                                    help: "Database lookups of API keys since the start (cache misses).")
        keyThrottled = registry.gauge("menurank_key_lookup_throttled",
                                      help: "Requests answered 503 because too many unknown keys were tried, since the start.")
        tokenQueries = registry.gauge("menurank_admin_token_lookup_queries",
                                      help: "Database lookups of admin tokens since the start.")
        tokenThrottled = registry.gauge("menurank_admin_token_lookup_throttled",
                                        help: "Admin requests answered 503 because too many unknown tokens were tried, since the start.")
        keyCacheKnown = registry.gauge("menurank_key_cache_entries", help: "Entries of the API key cache.",
                                       labels: ["kind": "known"])
        keyCacheUnknown = registry.gauge("menurank_key_cache_entries", help: "Entries of the API key cache.",
                                         labels: ["kind": "unknown"])
        openConnections = registry.gauge("menurank_http_open_connections", help: "HTTP connections open now.")
        expiredConnections = registry.gauge("menurank_http_expired_connections",
                                            help: "Connections closed for passing a header, body or response deadline, since the start.")
        slowBodyConnections = registry.gauge("menurank_http_slow_body_connections",
                                             help: "Connections closed for a body slower than --min-body-rate, since the start.")
        refusedConnections = registry.gauge("menurank_http_refused_connections",
                                            help: "Connections closed as they opened, their address at --connection-limit-per-address, since the start.")
        bodyBytesInFlight = registry.gauge("menurank_http_body_bytes_in_flight",
                                           help: "Bytes of request bodies reserved now (capped by --max-in-flight-body-bytes).")
    }

    /// The counter of requests for a route template and status.
    func request(route: String, status: Int) -> Counter {
        cached("r|\(route)|\(status)") {
            registry.counter("menurank_http_requests", help: "HTTP requests by route template and status.",
                             labels: ["route": route, "status": String(status)])
        }
    }

    func rejected(code: String) -> Counter {
        cached("j|\(code)") {
            registry.counter("menurank_events_rejected", help: "Events refused, by rejection code.", labels: ["code": code])
        }
    }

    func databaseError(kind: String) -> Counter {
        cached("d|\(kind)") {
            registry.counter("menurank_database_errors", help: "Database failures seen by the daemon, by kind.",
                             labels: ["kind": kind])
        }
    }

    private func cached(_ key: String, _ make: () -> Counter) -> Counter {
        if let counter = handles.withLock({ $0[key] }) { return counter }
        let counter = make()
        handles.withLock { $0[key] = counter }
        return counter
    }
}
