import Foundation
import Postgres

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL cluster of its own (through `scripts/pg` with `MENURANK_PG_DIR`),
/// for tests that must restart or stop the server without disturbing the other suites that
/// run at the same time against the shared test database.
public struct ScratchServer: Sendable {
    /// Its connection URL.
    public let url: String
    let directory: URL
    let script: URL

    /// True when this machine can run one: `scripts/pg` is there and PostgreSQL's server
    /// binaries are installed (`scripts/pg` would otherwise try to install them).
    public static var isPossible: Bool {
        guard let root = try? RepositoryPaths.root(),
            FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("scripts/pg").path),
            let versions = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")
        else { return false }
        return versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
    }

    /// Creates and starts a cluster under `.menurank/`, runs `body`, and destroys the cluster.
    public static func with<T>(_ body: (ScratchServer) throws -> T) throws -> T {
        let root = try RepositoryPaths.root()
        let directory = root.appendingPathComponent(
            ".menurank/scratch-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        let script = root.appendingPathComponent("scripts/pg")
        let output = try run(script, ["start"], directory: directory)
        let server = ScratchServer(
            url: output.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n").last ?? "",
            directory: directory, script: script)
        defer {
            _ = try? run(script, ["destroy"], directory: directory)
            try? FileManager.default.removeItem(at: directory)
        }
        return try body(server)
    }

    /// Restarts the server (fast shutdown: open connections are terminated), on the same port.
    public func restart() throws {
        try Self.pgCtl(["-m", "fast", "-w", "restart"], directory: directory)
    }

    /// Stops the server.
    public func stop() throws {
        try Self.pgCtl(["-m", "fast", "-w", "stop"], directory: directory)
    }

    /// Begins a smart shutdown and returns at once: from now on the server refuses new
    /// connections with SQLSTATE 57P03 ("the database system is shutting down") while the sessions
    /// already open go on; it stops when the last one ends. Call `stop()` (or end those sessions)
    /// and then `start()` to bring it back.
    public func beginSmartShutdown() throws {
        try Self.pgCtl(["-m", "smart", "-W", "stop"], directory: directory)
    }

    /// Stops the server if it still runs (after `beginSmartShutdown()`, say).
    public func stopIfRunning() {
        try? Self.pgCtl(["-m", "fast", "-w", "stop"], directory: directory)
    }

    /// Starts the server again after `stop()`, on the same port.
    public func start() throws {
        try Self.pgCtl(["-w", "start"], directory: directory)
    }

    /// Runs `body` with a hot standby of this cluster (streaming from it, on a port of its own):
    /// a server in recovery, which answers reads and refuses every write (SQLSTATE 25006). The
    /// primary is switched to `wal_level = replica` and restarted first. `promote` in `body` makes
    /// the standby a primary. The standby is stopped and deleted afterwards.
    public func withStandby<T>(_ body: (Standby) throws -> T) throws -> T {
        do {
            let connection = try PostgresConnection(url)
            try connection.execute(unsafeSQL: "ALTER SYSTEM SET wal_level = replica")
            try connection.execute(unsafeSQL: "ALTER SYSTEM SET max_wal_senders = 4")
        }
        try restart()
        let standbyDirectory = directory.appendingPathComponent("standby")
        try FileManager.default.createDirectory(at: standbyDirectory, withIntermediateDirectories: true)
        if getuid() == 0 {
            _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "postgres", standbyDirectory.path])
        }
        let data = standbyDirectory.appendingPathComponent("data")
        try Self.pgTool("pg_basebackup", ["-D", data.path, "-R", "-X", "stream", "-d", url])
        let port = Self.freePort()
        let config = data.appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: config)
        handle.seekToEndOfFile()
        handle.write(Data("\nport = \(port)\nhot_standby = on\n".utf8))
        try handle.close()
        try Self.pgTool("pg_ctl", ["-D", data.path, "-l", standbyDirectory.appendingPathComponent("server.log").path, "-w", "start"])
        defer { try? Self.pgTool("pg_ctl", ["-D", data.path, "-m", "immediate", "-w", "stop"]) }
        let standby = Standby(url: Self.replacingPort(of: url, with: port), data: data)
        return try body(standby)
    }

    /// A hot standby made by `withStandby`.
    public struct Standby: Sendable {
        /// Its connection URL.
        public let url: String
        let data: URL

        /// Ends recovery: the standby becomes a primary that takes writes.
        public func promote() throws {
            try ScratchServer.pgTool("pg_ctl", ["-D", data.path, "-w", "promote"])
        }
    }

    static func replacingPort(of url: String, with port: Int) -> String {
        guard let range = url.range(of: #":[0-9]+/"#, options: .regularExpression) else { return url }
        return url.replacingCharacters(in: range, with: ":\(port)/")
    }

    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 ? getsockname(descriptor, pointer, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when we are root).
    static func pgTool(_ name: String, _ arguments: [String]) throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted().last(where: {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/\(name)")
        }) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) not found"])
        }
        var command = ["/usr/lib/postgresql/\(version)/bin/\(name)"] + arguments
        if getuid() == 0 { command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command }
        let result = try ChildProcess.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
        guard result.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [
                NSLocalizedDescriptionKey: "\(name) \(arguments.joined(separator: " ")) exited with \(result.status): \(result.standardError)"])
        }
    }

    /// Runs `pg_ctl` on the cluster in `directory` (as `postgres` when we are root). Not
    /// `scripts/pg restart`: that moves the server to a new port when the old one is still in
    /// TIME_WAIT, which would strand every client holding the old URL.
    static func pgCtl(_ arguments: [String], directory: URL) throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted().last(where: {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/pg_ctl")
        }) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "pg_ctl not found"])
        }
        var command = [
            "/usr/lib/postgresql/\(version)/bin/pg_ctl", "-D", directory.appendingPathComponent("data").path,
            "-l", directory.appendingPathComponent("server.log").path,
        ] + arguments
        if getuid() == 0 { command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command }
        let result = try ChildProcess.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
        guard result.status == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [NSLocalizedDescriptionKey: "pg_ctl \(arguments.joined(separator: " ")) exited with \(result.status): \(result.standardError)"])
        }
    }

    @discardableResult
    static func run(_ script: URL, _ arguments: [String], directory: URL) throws -> String {
        let result = try ChildProcess.run(script, arguments, environment: ["MENURANK_PG_DIR": directory.path])
        guard result.status == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [NSLocalizedDescriptionKey: "scripts/pg \(arguments.joined(separator: " ")) exited with \(result.status): \(result.standardError)"])
        }
        return result.standardOutput
    }
}
