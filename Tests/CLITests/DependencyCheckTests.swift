import Foundation
import Testing
import TestSupport

/// `scripts/check-deps`: Package.swift's declarations against the `import` lines (issue 12, item 5).
/// Run on this repository (it must pass: `scripts/test` runs it first, so CI fails on a mismatch)
/// and on scratch packages that each break one rule (it must fail, naming the target and module).
@Suite("scripts/check-deps")
struct DependencyCheckTests {
    static func script() throws -> URL {
        try RepositoryPaths.root().appendingPathComponent("scripts/check-deps")
    }

    /// A scratch package: `Core` (no dependencies), `Feature` declaring `declared`, whose one file
    /// holds `featureSource`.
    static func scratchPackage(declared: [String], featureSource: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("check-deps-\(UUID().uuidString)")
        let list = declared.map { "\"\($0)\"" }.joined(separator: ", ")
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "scratch",
                targets: [
                    // A comment naming .target(name: "Ghost") is not a target.
                    .target(name: "Core"),
                    .target(name: "Feature", dependencies: [\(list)]),
                ]
            )

            """
        let files = [
            "Package.swift": manifest,
            "Sources/Core/Core.swift": "public struct Core {}\n",
            "Sources/Feature/Feature.swift": featureSource,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    static func check(_ root: URL) throws -> ChildProcess.Outcome {
        defer { try? FileManager.default.removeItem(at: root) }
        return try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", try script().path, "--root", root.path])
    }

    @Test("this repository's Package.swift matches its imports")
    func repositoryPasses() throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", try Self.script().path, "--root", try RepositoryPaths.root().path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("every import declared"))
    }

    @Test("a consistent package passes; imports in #if blocks, attributes and access levels are read")
    func consistentPasses() throws {
        let source = """
            #if canImport(Glibc)
            import Glibc
            #endif
            import Foundation
            @preconcurrency internal import Core
            let help = \"\"\"
              import            Text inside a string literal is not an import.
              \"\"\"

            """
        let result = try Self.check(try Self.scratchPackage(declared: ["Core"], featureSource: source))
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("an import that Package.swift does not declare fails")
    func undeclaredImportFails() throws {
        let result = try Self.check(try Self.scratchPackage(declared: [], featureSource: "import Core\n"))
        #expect(result.status == 1)
        #expect(result.standardError.contains("Feature: imports Core"))
        #expect(result.standardError.contains("does not declare it"))
    }

    @Test("a declared dependency that no file imports fails")
    func unusedDeclarationFails() throws {
        let result = try Self.check(try Self.scratchPackage(declared: ["Core"], featureSource: "import Foundation\n"))
        #expect(result.status == 1)
        #expect(result.standardError.contains("Feature: declares Core but none of its files imports it"))
    }

    @Test("Glibc imported outside #if canImport fails")
    func unguardedGlibcFails() throws {
        let result = try Self.check(try Self.scratchPackage(declared: ["Core"], featureSource: "import Glibc\nimport Core\n"))
        #expect(result.status == 1)
        #expect(result.standardError.contains("imports Glibc outside #if"))
    }

    @Test("an import of a module that is neither a target nor the toolchain's fails")
    func unknownModuleFails() throws {
        let result = try Self.check(try Self.scratchPackage(declared: ["Core"], featureSource: "import Core\nimport NIOCore\n"))
        #expect(result.status == 1)
        #expect(result.standardError.contains("imports NIOCore"))
    }
}
