import Foundation
import TestSupport

/// Runs the built `menurank` binary for the CLI tests (found by `RepositoryPaths.menurankBinary()`:
/// `MENURANK_BINARY`, else next to the test bundle; build it first with `swift build --product menurank`).
enum SimulateBinary {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// The checkout (the folder holding Package.swift).
    static var repositoryRoot: URL {
        (try? RepositoryPaths.root()) ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// Runs `menurank arguments...` to completion. `environment` is added to the test's own; a
    /// variable given as "" is removed.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = try RepositoryPaths.menurankBinary()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.filter { !$0.value.isEmpty }
        process.currentDirectoryURL = repositoryRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs, so a full pipe cannot block it.
        let errorData = SimulateBinaryPipeReader(err)
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                   error: String(decoding: errorData.finish(), as: UTF8.self))
    }
}

/// Drains a pipe on a background thread.
final class SimulateBinaryPipeReader: @unchecked Sendable {
    private var data = Foundation.Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func finish() -> Foundation.Data {
        done.wait()
        return data
    }
}
