public import CivilTime
import HTTP
public import Storage

/// Everything `menurank serve` can be told. Every value has a usable default.
public struct IngestConfiguration: Sendable {
    /// Address to bind (IPv4 or IPv6 literal) and port; port 0 picks a free one.
    public var host: String = "127.0.0.1"
    public var port: UInt16 = 8080
    /// Largest request body, before and after gzip decompression.
    public var maxBodyBytes: Int = 4 << 20
    /// Most events in one request; more is a 413 so the client splits the batch.
    public var maxEventsPerBatch: Int = 1000
    public var connectionLimit: Int = 1024
    /// Most connections from one IP address (behind a trusted proxy: requests at once from one
    /// forwarded client address).
    public var connectionLimitPerAddress: Int = 64
    /// Proxies whose forwarded client address (`X-Forwarded-For`, `Forwarded`) the per-address
    /// limits use: addresses or `ADDR/BITS` networks. Empty: every peer is the client.
    public var trustedProxies: [String] = []
    /// A connection on which nothing moves for this long is closed.
    public var connectionTimeout: Duration = .seconds(30)
    /// Total time for a request head (from the connection's opening or its previous response).
    public var headerTimeout: Duration = .seconds(15)
    /// Total time for a request body, and again for the client to take the response.
    public var bodyTimeout: Duration = .seconds(60)
    /// Bytes a second a request body must average from 5 s after its head on, else its connection
    /// is closed (0: no minimum).
    public var minBodyRate: Int = 1024
    /// Request bodies buffered at once over all connections (503 with Retry-After beyond).
    public var maxInFlightBodyBytes: Int = 64 << 20
    /// Requests per second per API key (token bucket); 0 disables the limit.
    public var rateLimit: Double = 0
    /// Bucket size: requests a key may send at once after being idle.
    public var rateBurst: Double = 100
    /// Days of events kept; older events are refused and their partitions dropped.
    public var retentionDays: Int = 90
    /// Days of rollups kept (nil: forever); older days' rollups are deleted by the maintenance.
    public var rollupRetentionDays: Int?
    /// Disagreement between `sent_at` and the server clock tolerated before event times are shifted.
    public var skewThreshold: Duration = .seconds(60)
    /// How far after the server time an event may lie.
    public var maxFuture: Duration = .seconds(300)
    public var dictionaryLimits = DictionaryLimits()
    /// Connections (and writer threads) of the ingestion pool.
    public var ingestPoolSize: Int = 2
    /// Connections of the pool for everything else (keys, dictionaries, menus, readiness).
    public var poolSize: Int = 4
    /// Most rows the writer puts in one transaction.
    public var maxRowsPerTransaction: Int = 20_000
    /// How long a looked-up API key is trusted before it is looked up again (revocation delay).
    public var keyCacheTTL: Duration = .seconds(5)
    /// Database lookups per second of keys never seen to exist (a token bucket with bursts of
    /// `unknownKeyLookupBurst`); past it such a key is answered 503 with Retry-After.
    public var unknownKeyLookupRate: Double = 20
    public var unknownKeyLookupBurst: Double = 100
    /// How often partitions are created ahead and old ones dropped.
    public var maintenanceInterval: Duration = .seconds(3600)
    /// `Retry-After` seconds of a 503.
    public var unavailableRetryAfter: Int = 2
    /// Grace period for requests in flight at shutdown.
    public var shutdownGrace: Duration = .seconds(10)
    /// PostgreSQL: a URL or conninfo (nil: libpq's `PG*` variables), plus extra libpq keywords.
    public var database: String?
    public var databaseParameters: [String: String] = [:]
    /// The web example to serve at `/example/` (`--serve-example`), or nil.
    public var exampleSite: ExampleSite?
    /// Now, for the daemon: the receive time events are checked against (too old, too far in the
    /// future, the client's skew) and the `server_time` of a reply, the admin API's default last
    /// day and `read_at`, the review's stamps (decided, a rollout's start and end), and the
    /// maintenance's today (partitions kept and created ahead, days closed, rollups past their
    /// retention). `.system` but in tests, which fix it.
    public var clock: WallClock = .system

    public init() {}

    /// Why `entries` are not a valid `trustedProxies` list (the first bad entry), or nil.
    public static func trustedProxyProblem(_ entries: [String]) -> String? {
        do {
            _ = try TrustedProxies(entries)
            return nil
        } catch {
            return error.message
        }
    }
}
