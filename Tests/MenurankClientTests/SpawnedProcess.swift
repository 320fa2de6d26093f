import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn` (Foundation's `Process` can hang under Swift
/// Testing), its output in files, that a test can SIGKILL and reap.
final class SpawnedProcess: @unchecked Sendable {
    private(set) var pid: pid_t = 0
    private var exitStatus: Int32?
    let outputFile: URL
    let errorFile: URL

    init(_ executable: URL, _ arguments: [String]) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-child-\(UUID().uuidString)")
        outputFile = base.appendingPathExtension("out")
        errorFile = base.appendingPathExtension("err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let command = [executable.path] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start \(executable.path): \(String(cString: strerror(spawned)))"])
        }
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait(timeout: 30)
        }
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
    }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
    var errorText: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { exitStatus = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F) }
        return exitStatus == nil
    }

    func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// The exit status (128 + signal when killed), or nil after `timeout` seconds.
    func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return exitStatus
    }

    /// The built executable `name`, next to the test bundle (as `RepositoryPaths.menurankBinary`).
    static func builtExecutable(_ name: String) throws -> URL {
        let menurank = try RepositoryPaths.menurankBinary()
        let candidate = menurank.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(candidate.path): build it with swift build --build-tests"])
        }
        return candidate
    }
}
