import Foundation

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

    /// Restarts the server (fast shutdown: open connections are terminated).
    public func restart() throws {
        _ = try Self.run(script, ["restart"], directory: directory)
    }

    /// Stops the server.
    public func stop() throws {
        _ = try Self.run(script, ["stop"], directory: directory)
    }

    /// Starts the server again after `stop()`.
    public func start() throws {
        _ = try Self.run(script, ["start"], directory: directory)
    }

    @discardableResult
    static func run(_ script: URL, _ arguments: [String], directory: URL) throws -> String {
        let process = Process()
        process.executableURL = script
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MENURANK_PG_DIR"] = directory.path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [NSLocalizedDescriptionKey: "scripts/pg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)"])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
