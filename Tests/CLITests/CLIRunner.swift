import Foundation
import Postgres
import TestSupport

/// Runs the built `menurank` binary (`swift build --product menurank` first; found by
/// `RepositoryPaths.menurankBinary()`) through TestSupport's `ChildProcess`, and captures what it prints.
struct CLIRunner {
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// `--database` for every run, when set.
    var database: String?

    /// Runs `menurank arguments... [--database D]` to its end in the checkout, with `NO_COLOR=1` and
    /// `environment` added to the test's own environment.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Outcome {
        var environment = ["NO_COLOR": "1"]
        for (key, value) in extra { environment[key] = value }
        let child = try ChildProcess.menurank(arguments + (database.map { ["--database", $0] } ?? []),
                                              environment: environment, currentDirectory: Self.repositoryRoot)
        return Outcome(status: child.status, output: child.standardOutput, error: child.standardError)
    }

    /// The checkout (the folder holding Package.swift).
    static var repositoryRoot: URL {
        (try? RepositoryPaths.root()) ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
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
