import Foundation
import TestSupport

/// A throwaway PostgreSQL cluster of this test's own (`scripts/pg` with `MENURANK_PG_DIR`), so
/// stopping it disturbs no other suite. Commands run through `posix_spawn` and `waitpid` with their
/// output in a file: no pipe and no Foundation child monitoring (TestSupport's `ScratchServer`
/// hung here waiting for `scripts/pg start`).
struct ScratchCluster {
    let url: String
    let directory: URL
    let script: URL

    static func with<T>(_ body: (ScratchCluster) throws -> T) throws -> T {
        let root = try RepositoryPaths.root()
        let directory = root.appendingPathComponent(
            ".menurank/scratch-ingest-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        let script = root.appendingPathComponent("scripts/pg")
        let cluster = ScratchCluster(url: "", directory: directory, script: script)
        defer {
            _ = try? cluster.pg("destroy")
            try? FileManager.default.removeItem(at: directory)
        }
        let output = try cluster.pg("start")
        let url = output.split(separator: "\n").last.map(String.init) ?? ""
        return try body(ScratchCluster(url: url, directory: directory, script: script))
    }

    func stop() throws { _ = try pg("stop") }

    /// Starts the stopped server again on the same port, with `pg_ctl` itself: `scripts/pg start`
    /// moves to a new port when the old one has connections in TIME_WAIT (its bind probe does not
    /// set SO_REUSEADDR), and a daemon can only recover if PostgreSQL comes back where it was.
    func start() throws {
        let data = directory.appendingPathComponent("data").path
        let log = directory.appendingPathComponent("server.log").path
        let pgCtl = "\"$bin/pg_ctl\" -D '\(data)' -l '\(log)' -w -t 60 start"
        try shell("bin=$(ls -d /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin 2>/dev/null | head -n 1); "
            + "if [ \"$(id -u)\" -eq 0 ]; then runuser -u postgres -- \(pgCtl); else \(pgCtl); fi")
    }

    /// Runs `scripts/pg <command>` and returns its standard output.
    @discardableResult
    func pg(_ command: String) throws -> String {
        let output = directory.deletingLastPathComponent().appendingPathComponent("\(directory.lastPathComponent).\(command).out")
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        try shell("MENURANK_PG_DIR='\(directory.path)' '\(script.path)' \(command) >'\(output.path)'")
        return (try? String(contentsOf: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Runs a shell command line (standard error discarded) and waits for it.
    private func shell(_ line: String) throws {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", "exec 2>/dev/null </dev/null; " + line]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot run /bin/sh"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(line) failed (\(status))"])
        }
    }
}
