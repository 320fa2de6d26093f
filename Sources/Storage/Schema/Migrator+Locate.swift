public import Foundation

extension Migrator {
    /// Finds the migrations directory, in this order:
    /// 1. `explicit` (the `--migrations` option), when given;
    /// 2. the `MENURANK_MIGRATIONS` environment variable;
    /// 3. `<executable dir>/../share/menurank/sql` (an installed layout);
    /// 4. walking up from the executable's folder, then from the current directory, to a
    ///    folder holding `sql/0001_*.sql` (a checkout).
    /// - Throws: `MigratorError` of kind `.directoryNotFound`, saying where it looked.
    public static func locateDirectory(
        explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws(MigratorError) -> URL {
        if let explicit, !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit)
            guard isDirectory(url) else {
                throw MigratorError(kind: .directoryNotFound, message: "--migrations \(explicit) is not a directory")
            }
            return url
        }
        if let fromEnvironment = environment["MENURANK_MIGRATIONS"], !fromEnvironment.isEmpty {
            let url = URL(fileURLWithPath: fromEnvironment)
            guard isDirectory(url) else {
                throw MigratorError(
                    kind: .directoryNotFound, message: "MENURANK_MIGRATIONS=\(fromEnvironment) is not a directory")
            }
            return url
        }
        var looked: [String] = []
        let executableDirectory = executable?.resolvingSymlinksInPath().deletingLastPathComponent()
        if let executableDirectory {
            let installed = executableDirectory.appendingPathComponent("../share/menurank/sql").standardizedFileURL
            if hasFirstMigration(installed) { return installed }
            looked.append(installed.path)
        }
        for start in [executableDirectory, currentDirectory.standardizedFileURL].compactMap({ $0 }) {
            var folder = start
            while true {
                let candidate = folder.appendingPathComponent("sql")
                if hasFirstMigration(candidate) { return candidate }
                if folder.path == "/" || folder.path.isEmpty { break }
                folder.deleteLastPathComponent()
            }
            looked.append("sql/ above \(start.path)")
        }
        throw MigratorError(
            kind: .directoryNotFound,
            message: "no migrations found (looked at \(looked.joined(separator: ", "))); pass --migrations DIR or set MENURANK_MIGRATIONS")
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    private static func hasFirstMigration(_ url: URL) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return false }
        return names.contains { $0.hasPrefix("0001_") && $0.hasSuffix(".sql") }
    }
}
