import Foundation
import HTTP
import Ingest
import Observability
import Postgres
import Storage
import TestSupport

/// The real daemon, in process, on a free port, over a fresh migrated schema, with two apps.
final class Daemon: @unchecked Sendable {
    let schema: TestSchema
    let pool: PostgresPool
    let server: IngestServer
    let port: UInt16
    /// App "alpha" and its keys; app "beta" and its keys.
    let alpha: CreatedApp
    let beta: CreatedApp
    let logLines: LogLines

    private init(schema: TestSchema, pool: PostgresPool, server: IngestServer, port: UInt16, alpha: CreatedApp,
                 beta: CreatedApp, logLines: LogLines)
    {
        self.schema = schema
        self.pool = pool
        self.server = server
        self.port = port
        self.alpha = alpha
        self.beta = beta
        self.logLines = logLines
    }

    /// Runs `body` with a started daemon; stops it and drops the schema afterwards.
    static func with<T>(prefix: String = "ingest", configure: (inout IngestConfiguration) -> Void = { _ in },
                        _ body: (Daemon) throws -> T) throws -> T
    {
        try TestDatabase.withSchema(prefix: prefix) { schema in
            try Migrations.apply(on: schema.connect())
            let pool = schema.makePool(maxConnections: 2)
            defer { pool.close() }
            let store = AppStore(pool: pool)
            let alpha = try store.create(name: "alpha")
            let beta = try store.create(name: "beta")
            var configuration = IngestConfiguration()
            configuration.port = 0
            configuration.database = TestDatabase.conninfo
            configuration.databaseParameters = schema.parameters
            configuration.keyCacheTTL = .zero
            configure(&configuration)
            let lines = LogLines()
            let logger = Logger(label: "menurank.test", level: .info,
                                output: LogOutput(format: .logfmt) { line in lines.append(line) })
            let server = IngestServer(configuration: configuration, logger: logger)
            let port = try server.start()
            defer { server.shutdown() }
            let daemon = Daemon(schema: schema, pool: pool, server: server, port: port, alpha: alpha, beta: beta,
                                logLines: lines)
            return try body(daemon)
        }
    }

    func client() -> HTTPClient { HTTPClient(port: port, timeout: .seconds(30)) }

    /// POSTs a JSON body to /v1/events with a key (alpha's write key unless given).
    func post(_ body: String, key: String? = nil, headers: HTTPHeaders = ["Content-Type": "application/json"],
              client: HTTPClient? = nil) throws -> Reply
    {
        try post(bytes: Array(body.utf8), key: key, headers: headers, client: client)
    }

    func post(bytes: [UInt8], key: String? = nil, headers: HTTPHeaders = ["Content-Type": "application/json"],
              client: HTTPClient? = nil) throws -> Reply
    {
        var all = headers
        if let key = key ?? Optional(alpha.writeKey), !key.isEmpty { all.set("Authorization", "Bearer \(key)") }
        let response = try (client ?? self.client()).send(method: "POST", path: "/v1/events", headers: all, body: bytes)
        return Reply(response)
    }

    func get(_ path: String, key: String? = nil, headers: HTTPHeaders = [:]) throws -> Reply {
        var all = headers
        if let key { all.set("Authorization", "Bearer \(key)") }
        return Reply(try client().send(method: "GET", path: path, headers: all))
    }

    func count(_ sql: String) throws -> Int {
        try schema.connect().query(PostgresQuery(unsafeSQL: sql)).first!.decode(Int.self, at: 0)
    }
}

/// A response with its JSON body decoded.
struct Reply {
    let status: Int
    let headers: HTTPHeaders
    let text: String
    let json: [String: Any]

    init(_ response: HTTPClientResponse) {
        status = response.status
        headers = response.headers
        text = response.text
        json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    var accepted: Int { json["accepted"] as? Int ?? -1 }
    var duplicates: Int { json["duplicates"] as? Int ?? -1 }
    var rejected: [[String: Any]] { json["rejected"] as? [[String: Any]] ?? [] }
    var error: String? { json["error"] as? String }
    var message: String? { json["message"] as? String }
}

/// Log lines written by the daemon under test.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

/// Applies the migrations (sql/NNNN_*.sql) with the Migrator.
enum Migrations {
    static func apply(on connection: PostgresConnection) throws {
        try Migrator(directory: RepositoryPaths.root().appendingPathComponent("sql"))
            .migrate(on: connection, distribute: TestDatabase.distributed)
    }
}

/// Event JSON for tests.
enum Payload {
    static func now(offsetSeconds: Double = 0) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date().addingTimeInterval(offsetSeconds))
    }

    static func uuid() -> String { UUID().uuidString.lowercased() }

    static func event(id: String = uuid(), time: String = now(), elementType: String = "mail.message",
                      command: String? = "reply", extra: String = "") -> String
    {
        var fields = ["\"id\":\"\(id)\"", "\"time\":\"\(time)\"", "\"element_type\":\"\(elementType)\""]
        if let command { fields.append("\"command\":\"\(command)\"") }
        if !extra.isEmpty { fields.append(extra) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func batch(_ events: [String], sentAt: String? = nil, context: String? = nil) -> String {
        var members: [String] = []
        if let sentAt { members.append("\"sent_at\":\"\(sentAt)\"") }
        if let context { members.append("\"context\":\(context)") }
        members.append("\"events\":[" + events.joined(separator: ",") + "]")
        return "{" + members.joined(separator: ",") + "}"
    }

    static func events(_ count: Int) -> [String] { (0..<count).map { _ in event() } }
}
