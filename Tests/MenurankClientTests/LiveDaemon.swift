import Foundation
import Postgres
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The `menurank` binary serving a migrated database (a test schema, or a scratch cluster), with
/// one app and its keys. It can be SIGKILLed and started again on the same port.
final class LiveDaemon: @unchecked Sendable {
    let database: String
    let writeKey: String
    let readKey: String
    private(set) var port: UInt16 = 0
    private var process: ChildProcess?
    private let extraFlags: [String]

    init(database: String, app: String = "probe", flags: [String] = []) throws {
        self.database = database
        extraFlags = flags
        let binary = try RepositoryPaths.menurankBinary()
        let migrate = try ChildProcess.run(binary, ["migrate", "--database", database])
        guard migrate.status == 0 else { throw Self.failure("migrate: \(migrate.standardError)") }
        let created = try ChildProcess.run(binary, ["apps", "create", app, "--format", "json", "--database", database])
        guard created.status == 0,
              let keys = try JSONSerialization.jsonObject(with: Data(created.standardOutput.utf8)) as? [String: Any],
              let write = keys["write_key"] as? String, let read = keys["read_key"] as? String
        else { throw Self.failure("apps create: \(created.standardError)") }
        writeKey = write
        readKey = read
        try start()
    }

    deinit { stop() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts `menurank serve`: on a free port the first time, on the same port afterwards.
    func start() throws {
        let binary = try RepositoryPaths.menurankBinary()
        let deadline = Date().addingTimeInterval(60)
        while true {
            let child = try ChildProcess(binary, ["serve", "--listen", "127.0.0.1:\(port)", "--database", database,
                                                    "--key-cache-ttl", "0s"] + extraFlags)
            if let found = child.listeningPort(timeout: deadline.timeIntervalSinceNow) {
                port = found
                process = child
                return
            }
            // The old port may still be held for a moment after a kill: try again.
            guard Date() < deadline else { throw Self.failure("menurank serve did not start: \(child.standardError)") }
            child.signal(SIGKILL)
            _ = child.waitForExit()
            usleep(200_000)
        }
    }

    func kill9() {
        process?.signal(SIGKILL)
        _ = process?.wait(timeout: 30)
        process = nil
    }

    func stop() {
        process?.stop(timeout: 30)
        process = nil
    }

    var log: String { process?.standardError ?? "" }

    /// The first column of each row, as text.
    func query(_ sql: String) throws -> [String] {
        let connection = try PostgresConnection(database)
        return try connection.query(PostgresQuery(unsafeSQL: sql)).map { try $0.decode(String.self, at: 0) }
    }

    static func failure(_ message: String) -> any Error {
        CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: message])
    }
}

extension TestDatabase {
    /// `withSchema` for an async body.
    static func withSchemaAsync<T>(prefix: String, _ body: (String) async throws -> T) async throws -> T {
        let admin = try connect()
        let name = "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)_\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        try admin.execute("CREATE SCHEMA \(identifier: name)")
        defer { _ = try? admin.execute("DROP SCHEMA IF EXISTS \(identifier: name) CASCADE") }
        let options = "-c search_path=\(name),public"
        let base = conninfo ?? ""
        let connection: String
        if base.isEmpty {
            connection = "options='\(options)'"
        } else if base.hasPrefix("postgres://") || base.hasPrefix("postgresql://") {
            connection = base + (base.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(name)%2Cpublic"
        } else {
            connection = base + " options='\(options)'"
        }
        return try await body(connection)
    }
}
