import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `menurank serve` process on a free port of 127.0.0.1, for the live simulate test. The port
/// is read from the daemon's log (it logs the real port when started with port 0). Spawned with
/// `posix_spawn` and reaped with `waitpid` (Foundation's `Process` can hang under Swift Testing);
/// its standard error goes to a file.
final class SimulateDaemon: @unchecked Sendable {
    private var pid: pid_t = 0
    private var exitStatus: Int32?
    private let logFile: URL
    private(set) var port: UInt16 = 0

    init(database: String) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-serve-\(UUID().uuidString).log")
        let binary = try RepositoryPaths.menurankBinary().path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let command = [binary, "serve", "--listen", "127.0.0.1:0", "--database", database]
        let argv = command.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start menurank serve: \(String(cString: strerror(spawned)))"])
        }
        let deadline = Date().addingTimeInterval(TestDatabase.distributed ? 180 : 30)
        while Date() < deadline, isRunning {
            if let found = Self.port(in: logText) {
                port = found
                return
            }
            usleep(50_000)
        }
        stop()
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "menurank serve did not log its port: \(logText)"])
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: logFile)
    }

    var logText: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var raw: Int32 = 0
        let reaped = waitpid(pid, &raw, WNOHANG)
        if reaped == pid { exitStatus = Self.status(raw) }
        return exitStatus == nil
    }

    /// The first non-zero port in the log, written as `port=N` (logfmt), `"port":N` (JSON) or
    /// `127.0.0.1:N`.
    static func port(in text: String) -> UInt16? {
        for marker in ["port=", "\"port\":", "127.0.0.1:"] {
            var rest = Substring(text)
            while let range = rest.range(of: marker) {
                let digits = rest[range.upperBound...].prefix { $0.isNumber }
                if let port = UInt16(digits), port != 0 { return port }
                rest = rest[range.upperBound...]
            }
        }
        return nil
    }

    /// SIGTERM, then waits (at most 30 s, then SIGKILL); returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if let exitStatus { return exitStatus }
        guard pid > 0 else { return -1 }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(TestDatabase.distributed ? 180 : 30)
        while isRunning {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(20_000)
        }
        return exitStatus ?? -1
    }

    private static func status(_ raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
