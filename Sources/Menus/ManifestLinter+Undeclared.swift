extension ManifestLinter {
    /// HIG-1 for commands: per element type, the window's selections that name a command the
    /// manifest does not declare (the app sends ids the team never described, or ids with a typo),
    /// one warning each with the count and the commands by use, so `lint --app` says what `rank`
    /// and the dashboard count. Apart from `lint(_:usage:)` because only `menurank lint` reports
    /// it; the night's lint keeps its findings.
    public static func undeclaredCommands(_ manifest: Manifest, usage: MenuUsage) -> [LintFinding] {
        usage.elements.keys.sorted().compactMap { elementType in
            let outside = (usage.elements[elementType]?.selections ?? [:])
                .filter { manifest.commands[$0.key] == nil && $0.value > 0 }
                .sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            guard !outside.isEmpty else { return nil }
            let selections = outside.reduce(0) { $0 + $1.value }
            let names = outside.prefix(10).map(\.key).joined(separator: ", ") + (outside.count > 10 ? ", ..." : "")
            return LintFinding(
                rule: .hig1, severity: .warning, elementType: elementType, path: .menu(elementType),
                message: "\(selections) selection\(selections == 1 ? "" : "s") of \(elementType) in telemetry name "
                    + "\(outside.count) command\(outside.count == 1 ? "" : "s") the manifest does not declare (\(names)); "
                    + "declare them in commands, or fix the command ids the app sends")
        }
    }
}
