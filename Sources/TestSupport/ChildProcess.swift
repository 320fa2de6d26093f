public import Foundation
import Locking

#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// The one way the tests start a program: the built `menurank` binary (a command run to its end,
/// or `serve` left running), a helper executable, a script.
///
/// Uses `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose `waitUntilExit` can
/// hang on Linux when called from a Swift concurrency thread (which is where Swift Testing runs
/// tests). Standard input, output and error are files in a scratch folder of the child's own, so
/// a full pipe can never block the child, and a daemon the program leaves behind cannot keep us
/// waiting for end-of-file. The child is reaped exactly once; dropping the last reference to a
/// child still running kills it.
public final class ChildProcess: Sendable {
    /// What a program that ran to its end left: its exit status (128 + the signal number when it
    /// was killed) and what it printed.
    public struct Outcome: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    public let pid: pid_t
    private let scratch: URL
    /// The exit status once the child has been reaped.
    private let exitStatus = Locked<Int32?>(nil)

    /// Starts `executable` with `arguments`; `environment` entries are added to (or override) this
    /// process's environment; `input` is the child's whole standard input.
    public init(_ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:],
                currentDirectory: URL? = nil, input: String = "") throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let inPath = scratch.appendingPathComponent("in").path
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch.appendingPathComponent("out").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.appendingPathComponent("err").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o600)

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
            try? FileManager.default.removeItem(at: scratch)
            throw CocoaError(.executableLoad,
                             userInfo: [NSLocalizedDescriptionKey: "cannot run \(command[0]): \(String(cString: strerror(spawned)))"])
        }
        self.pid = pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Runs `executable` to its end and returns what it printed.
    public static func run(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: URL? = nil, input: String = ""
    ) throws -> Outcome {
        let child = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory,
                                     input: input)
        let status = child.waitForExit()
        return Outcome(status: status, standardOutput: child.standardOutput, standardError: child.standardError)
    }

    /// Runs the built `menurank` binary (`RepositoryPaths.menurankBinary()`) to its end.
    public static func menurank(_ arguments: [String], environment: [String: String] = [:],
                                currentDirectory: URL? = nil, input: String = "") throws -> Outcome {
        try run(try RepositoryPaths.menurankBinary(), arguments, environment: environment,
                currentDirectory: currentDirectory, input: input)
    }

    /// What the child has written to its standard output so far.
    public var standardOutput: String { read("out") }
    /// What the child has written to its standard error so far.
    public var standardError: String { read("err") }

    private func read(_ name: String) -> String {
        (try? String(contentsOf: scratch.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = Self.status(raw) }
            return status == nil
        }
    }

    /// Sends `signal` to the child, unless it has already exited.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// The exit status, or nil when the child is still running after `timeout` seconds.
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        while isRunning {
            if ContinuousClock.now > deadline { return nil }
            usleep(10_000)
        }
        return exitStatus.withLock { $0 }
    }

    /// Blocks until the child exits; its exit status. (It polls: one blocking `waitpid` outside
    /// the lock would race `isRunning`'s, and one inside it would keep `signal` from the child.)
    public func waitForExit() -> Int32 {
        while isRunning { usleep(10_000) }
        return exitStatus.withLock { $0 } ?? -1
    }

    /// SIGTERM, then waits `timeout` seconds before SIGKILL; the exit status.
    @discardableResult
    public func stop(timeout: TimeInterval = 30) -> Int32 {
        signal(SIGTERM)
        if let status = wait(timeout: timeout) { return status }
        signal(SIGKILL)
        return waitForExit()
    }

    /// The port a `menurank serve` child listens on, read from its log (it logs the real port when
    /// started on port 0, `port=N` in logfmt, `"port":N` in JSON), waiting at most `timeout`
    /// seconds; nil when the child exits first or the time runs out.
    public func listeningPort(timeout: TimeInterval) -> UInt16? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        while ContinuousClock.now < deadline {
            if let port = Self.listeningPort(in: standardError) { return port }
            guard isRunning else { return Self.listeningPort(in: standardError) }
            usleep(20_000)
        }
        return nil
    }

    /// The first non-zero port of a `listening` line of `log`.
    public static func listeningPort(in log: String) -> UInt16? {
        for line in log.split(separator: "\n") where line.contains("listening") {
            for marker in ["port=", "\"port\":"] {
                if let range = line.range(of: marker),
                   let port = UInt16(line[range.upperBound...].prefix { $0.isNumber }), port != 0 {
                    return port
                }
            }
        }
        return nil
    }

    private static func status(_ raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
