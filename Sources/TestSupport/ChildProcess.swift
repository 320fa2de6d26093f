public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion and captures what it printed.
///
/// Uses `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose
/// `waitUntilExit` can hang on Linux when called from a Swift concurrency thread (which is
/// where Swift Testing runs tests). Output goes through temporary files, so a daemon the
/// program leaves behind cannot keep us waiting for end-of-file.
public struct ChildProcess: Sendable {
    /// The exit status, or 128 + the signal number when it was killed.
    public let status: Int32
    public let standardOutput: String
    public let standardError: String

    /// Runs `executable` with `arguments`; `environment` entries are added to (or override)
    /// this process's environment; `input` is written to its standard input.
    public static func run(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: URL? = nil, input: String = ""
    ) throws -> ChildProcess {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inPath = scratch.appendingPathComponent("in").path
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        var command = [executable.path] + arguments
        if let currentDirectory {
            // posix_spawn has no working-directory argument everywhere: go through the shell.
            command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", currentDirectory.path] + command
        }
        let argv = command.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot run \(command[0]): \(String(cString: strerror(spawned)))"])
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let exited = raw & 0x7F == 0
        let status = exited ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        func read(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        return ChildProcess(status: status, standardOutput: read(outPath), standardError: read(errPath))
    }
}
