import Foundation

/// Runs the built `menurank` binary for the CLI tests. It is found through `MENURANK_BIN`, else
/// next to the test bundle (where `swift build` puts the products of the same configuration).
enum SimulateBinary {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The binary's path, or nil with the reason.
    static func path() -> (path: String?, reason: String) {
        if let explicit = ProcessInfo.processInfo.environment["MENURANK_BIN"] {
            return (FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil, "MENURANK_BIN=\(explicit) is not executable")
        }
        var candidates: [URL] = []
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        candidates.append(bundle.appendingPathComponent("menurank"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("menurank"))
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug/menurank"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return (candidate.path, "")
        }
        return (nil, "menurank binary not found next to the tests; build it first (swift build --product menurank) or set MENURANK_BIN")
    }

    /// Runs `menurank arguments...` to completion.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let located = path()
        guard let binary = located.path else { throw SimulateBinaryMissing(reason: located.reason) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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

struct SimulateBinaryMissing: Swift.Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
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
