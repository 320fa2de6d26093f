import Foundation
import Locking
import Postgres
import TestSupport

/// Runs the built `menurank` binary (`swift build --product menurank` first) and captures what it
/// prints.
struct CLIRunner {
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// `--database` for every run, when set.
    var database: String?

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = try RepositoryPaths.menurankBinary()
        process.arguments = arguments + (database.map { ["--database", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errorData = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            group.leave()
        }.start()
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    /// Writes `text` to a temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "manifest.json") throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("menurank-cli-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Migrates the test schema with the binary's own `menurank migrate` (the Migrator, as an
    /// operator runs it), with `--distributed` when the suite runs on Citus (`scripts/test
    /// --citus`), so the commands under test meet the tables as production has them.
    static func migrate(_ schema: TestSchema) throws {
        let arguments = ["migrate"] + (TestDatabase.distributed ? ["--distributed"] : [])
        let outcome = try CLIRunner(database: schema.connectionString).run(arguments)
        guard outcome.status == 0 else {
            throw MigrationFailure(description: "menurank \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.error)")
        }
    }

    struct MigrationFailure: Error, CustomStringConvertible {
        var description: String
    }
}
