import Foundation
import Menus
import Testing
import TestSupport

/// Shared inputs of the Menus tests.
enum Fixtures {
    /// The example manifest of DESIGN.md, "Menu manifest".
    static let designExample = DesignExample.manifest()

    /// The 28-day selections of DESIGN.md's recommendation example.
    static let designSelections = Dictionary(uniqueKeysWithValues: DesignExample.selections)

    /// Commands most lint tests use, with titles.
    static let commands = """
        "reply": {"title": "Reply"}, "forward": {"title": "Forward"}, "archive": {"title": "Archive"},
        "delete": {"title": "Delete", "destructive": true}, "copy": {"title": "Copy"},
        "print": {"title": "Print"}, "move": {"title": "Move…"}, "flag": {"title": "Flag"},
        "share": {"title": "Share"}, "rename": {"title": "Rename"},
        "view": {"title": "Open"}, "files.open": {"title": "Show"},
        "open_window": {"title": "Open in New Window"}
        """

    /// A manifest document with `commands` and the given `menus` members.
    static func manifest(menus: String, commands: String = Fixtures.commands) -> String {
        "{\"app\": \"test\", \"version\": \"1\", \"commands\": {\(commands)}, \"menus\": {\(menus)}}"
    }

    /// The file under `shared/data/`, looked for next to the package root and each folder above it
    /// (the main checkout sits beside `shared`, a worktree one level deeper).
    static func sharedDataFile(_ relative: String, filePath: String = #filePath) -> URL? {
        var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
        while true {
            let candidate = dir.appendingPathComponent("shared/data").appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
    }

    /// Reads a shared data file; when it is absent, fails the test under CI and skips it otherwise.
    static func requireSharedData(_ relative: String) throws -> [UInt8] {
        guard let url = sharedDataFile(relative) else {
            let message: Comment = "shared/data/\(relative) not found beside the package root"
            if ProcessInfo.processInfo.environment["CI"] != nil {
                Issue.record(message)
            }
            try Test.cancel(message)
        }
        return Array(try Foundation.Data(contentsOf: url))
    }
}
