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

    /// Runs `menurank arguments...` to completion in the checkout, `environment` added to the
    /// test's own (through `ChildProcess`: `Process.waitUntilExit` can hang under Swift Testing).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let child = try ChildProcess.run(try RepositoryPaths.menurankBinary(), arguments, environment: environment,
                                         currentDirectory: repositoryRoot)
        return Run(status: child.status, output: child.standardOutput, error: child.standardError)
    }
}
