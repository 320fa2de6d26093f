import Foundation
import TestSupport

/// The `menurank` binary run as a child process (a long-running one too: `serve`), its output drained continuously (a full pipe
/// would block the child).
final class MenurankProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var errorText = ""
    private var outputText = ""
    private let drained = DispatchGroup()

    init(arguments: [String], environment: [String: String], input: String? = nil) throws {
        process.executableURL = try RepositoryPaths.menurankBinary()
        process.arguments = arguments
        var all = ProcessInfo.processInfo.environment
        for (key, value) in environment { all[key] = value }
        process.environment = all
        let errorPipe = Pipe()
        let outputPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = outputPipe
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        drain(errorPipe) { [self] text in lock.lock(); errorText += text; lock.unlock() }
        drain(outputPipe) { [self] text in lock.lock(); outputText += text; lock.unlock() }
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
    }

    /// Runs to completion.
    static func run(_ arguments: [String], environment: [String: String], input: String? = nil) throws
        -> (status: Int32, standardOutput: String, standardError: String)
    {
        let child = try MenurankProcess(arguments: arguments, environment: environment, input: input)
        let status = child.wait(timeout: 60) ?? -1
        return (status, child.standardOutput, child.standardError)
    }

    private func drain(_ pipe: Pipe, _ append: @escaping @Sendable (String) -> Void) {
        let handle = pipe.fileHandleForReading
        drained.enter()
        // A thread of its own: blocking reads on GCD's few worker threads would starve other work.
        let drained = self.drained
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                append(String(decoding: data, as: UTF8.self))
            }
            drained.leave()
        }
    }

    var standardError: String { lock.lock(); defer { lock.unlock() }; return errorText }
    var standardOutput: String { lock.lock(); defer { lock.unlock() }; return outputText }

    /// The port from the `msg=listening ... port=N` line.
    func waitForPort(timeout: TimeInterval) -> UInt16? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for line in standardError.split(separator: "\n") where line.contains("msg=listening") || line.contains("msg=\"listening\"") {
                if let range = line.range(of: " port=") {
                    return UInt16(line[range.upperBound...].prefix { $0.isNumber })
                }
            }
            if !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status, or nil (and the child killed) after `timeout` seconds.
    func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        drained.wait()
        return process.terminationStatus
    }
}
