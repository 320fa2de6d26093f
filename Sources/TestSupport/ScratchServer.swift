import Foundation

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
