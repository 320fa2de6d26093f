public import Foundation

/// How a `MenurankClient` sends, queues and retries. Only the endpoint, the write key and the
/// journal directory are required; the defaults suit an app.
public struct MenurankConfiguration: Sendable {
    /// How requests reach the server.
    public enum Transport: Sendable {
        /// URLSession, except for a plain `http://` endpoint on Linux, which gets the library's
        /// own keep-alive HTTP/1.1 connections: URLSession there (swift-corelibs-foundation over
        /// libcurl) costs several times the CPU per request. `https://` always uses URLSession.
        case automatic
        /// URLSession for every request.
        case urlSession
    }

    public enum Compression: Sendable {
        /// `Content-Encoding: gzip` (the library's own encoder: Foundation has none on Linux).
        case gzip
        case none
    }

    /// The daemon, `https://menurank.example.com` (paths `/v1/events` and `/v1/menus` are added).
    public var endpoint: URL
    /// The app's write key, for `POST /v1/events`.
    public var writeKey: String
    /// The app's read key, for `GET /v1/menus`; the menus API needs it.
    public var readKey: String?
    /// Where the journal (and the menu cache) live; one directory per client, kept across launches.
    public var directory: URL
    public var context: MenurankContext

    /// A batch goes out when it holds this many events...
    public var maxBatchEvents = 500
    /// ...or this many bytes of JSON (before compression)...
    public var maxBatchBytes = 512 * 1024
    /// ...or when its oldest event has waited this long.
    public var maxBatchAge: Duration = .seconds(5)
    /// Batches in flight at once, each sent by a delivery thread of its own (on a connection of
    /// its own), so the next batch is read and sent while one waits for its answer. The journal's
    /// cursor moves past a batch only once it and every batch before it are acknowledged: a batch
    /// answered out of order and then lost to a crash is sent again (same ids, stored once).
    /// 1 sends one batch at a time.
    public var maxConcurrentBatches = 2
    /// The journal's size cap; past it the oldest events are dropped (and counted).
    public var maxJournalBytes = 16 * 1024 * 1024
    public var journalSegmentBytes = 1024 * 1024
    public var compression: Compression = .gzip
    /// Send the context members that every event of a batch shares once, as the batch's `context`
    /// (the server stores the same rows either way); false sends each event as recorded. For tests
    /// that compare both.
    package var sharesContext = true
    public var transport: Transport = .automatic
    /// `fsync` the journal before each acknowledgement is recorded (survives power loss, not just
    /// a killed process).
    public var syncToDisk = true
    public var requestTimeout: Duration = .seconds(30)
    /// Backoff: full jitter between 0 and `minimumBackoff * 2^attempt`, at most `maximumBackoff`,
    /// never shorter than a Retry-After (itself capped at `maximumRetryAfter`).
    public var minimumBackoff: Duration = .milliseconds(500)
    public var maximumBackoff: Duration = .seconds(60)
    public var maximumRetryAfter: Duration = .seconds(600)
    /// The wall clock that stamps events and `sent_at` (tests make it jump). Waiting uses a
    /// monotonic clock, whatever this one does.
    public var wallClock: @Sendable () -> Date = { Date() }
    /// Called (on a delivery thread) for each event the server rejected; the event is removed from
    /// the journal and never sent again. With batches in flight at once, in the order the answers
    /// come, which may not be the order the events were recorded in.
    public var onRejection: (@Sendable (MenurankRejection) -> Void)?
    /// Called (on a delivery thread) after every request, for the app's own telemetry or a load
    /// generator's statistics.
    public var onRequest: (@Sendable (MenurankRequestReport) -> Void)?
    /// Called once when delivery stops for good (401, 403: the key; 404, 405, 415: the endpoint).
    public var onDeliveryStopped: (@Sendable (MenurankClientError) -> Void)?

    public init(endpoint: URL, writeKey: String, directory: URL, readKey: String? = nil,
                context: MenurankContext = MenurankContext()) {
        self.endpoint = endpoint
        self.writeKey = writeKey
        self.directory = directory
        self.readKey = readKey
        self.context = context
    }
}

/// An event the server refused (its `rejected` entry), or that could never fit in a request.
public struct MenurankRejection: Sendable, Equatable {
    public var id: MenurankEventID
    /// The server's stable code: `invalid_element_type`, `time_too_old`, ...
    public var code: String
    public var message: String
}

/// One request to `POST /v1/events`: what was sent and what came back.
public struct MenurankRequestReport: Sendable {
    /// The HTTP status; nil when no response came (network error).
    public var status: Int?
    public var events: Int
    /// From a 200: accepted, duplicates (sent before: not stored again), rejection codes.
    public var accepted: Int
    public var duplicates: Int
    public var rejectionCodes: [String]
    /// Body bytes as sent (compressed when gzip is on).
    public var bodyBytes: Int
    /// From sending to the complete response, in seconds (monotonic clock).
    public var seconds: Double
    /// 0 for a batch's first attempt.
    public var attempt: Int
}

/// What the app can watch: counts since the client started, and the last error.
public struct MenurankMetrics: Sendable, Equatable {
    /// Events in the journal, not yet acknowledged.
    public var queued: Int
    /// Events the server acknowledged (accepted or duplicate).
    public var sent: Int
    /// Events the server rejected (reported to `onRejection`).
    public var rejected: Int
    /// Events dropped by the journal's size cap, or lost to a damaged journal (what was found is in
    /// `lastError`, and logged).
    public var dropped: Int
    /// Records that could not be written (the journal's disk failed), so were never queued.
    public var failedToRecord: Int
    public var lastError: String?
    /// True once a 401, 403 (or an endpoint that does not exist) stopped delivery.
    public var deliveryStopped: Bool
}

/// Why the client could not do something.
public struct MenurankClientError: Error, Sendable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        public static let journal = Kind(name: "journal")
        public static let unauthorized = Kind(name: "unauthorized")
        public static let endpoint = Kind(name: "endpoint")
        public static let unreachable = Kind(name: "unreachable")
        public static let server = Kind(name: "server")
        public static let invalidResponse = Kind(name: "invalid response")
        public static let noCachedLayout = Kind(name: "no cached layout")
        public static let missingReadKey = Kind(name: "missing read key")
        public var description: String { name }
    }

    public var kind: Kind
    public var message: String
    /// The HTTP status when the server answered.
    public var status: Int?

    init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { "\(kind): \(message)" }
}
