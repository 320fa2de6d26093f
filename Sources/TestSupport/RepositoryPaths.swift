public import Foundation

/// Where the checkout and the built binary are, for tests that run the CLI or scripts.
public enum RepositoryPaths {
    /// The folder holding `Package.swift`, found by walking up from `filePath`.
    public static func root(filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Package.swift above \(filePath)"])
    }

    /// The built `menurank` executable: `MENURANK_BINARY` if set, else next to the running test
    /// bundle (`.build/<triple>/<config>/`), else `.build/debug/menurank`.
    /// - Throws: when none exists; run `swift build --product menurank` first (a test cannot
    ///   build it: `swift test` holds the build folder's lock).
    public static func menurankBinary() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let explicit = environment["MENURANK_BINARY"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        var bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the test binary sits inside `X.xctest/Contents/MacOS/`.
        while bundleDirectory.path.contains(".xctest") { bundleDirectory.deleteLastPathComponent() }
        candidates.append(bundleDirectory.appendingPathComponent("menurank"))
        let root = try root()
        candidates.append(root.appendingPathComponent(".build/debug/menurank"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw CocoaError(
            .fileNoSuchFile,
            userInfo: [NSFilePathErrorKey: "menurank binary (looked at \(candidates.map(\.path).joined(separator: ", "))); run swift build --product menurank"])
    }

    /// The built executable `name` of this package (`menurank-client-probe`, `menurank-example`),
    /// next to the `menurank` binary.
    public static func builtExecutable(_ name: String) throws -> URL {
        let candidate = try menurankBinary().deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(candidate.path): build it with swift build --build-tests"])
        }
        return candidate
    }
}
