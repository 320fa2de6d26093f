import Escaping

extension Layout {
    /// Why pruned commands could not be kept in a submenu.
    public struct KeepPrunedError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Checks a title for the submenu of kept commands: 1-64 characters, none of them a control or
    /// bidi formatting character (`FreeText`),
    /// and not generic ("More", "Other", ... are HIG-3 findings).
    public static func checkKeptTitle(_ title: String) throws(KeepPrunedError) {
        guard !title.allSatisfy(\.isWhitespace), title.count <= 64 else {
            throw KeepPrunedError(description: "the submenu title must be 1-64 characters")
        }
        guard FreeText.firstRefused(in: title) == nil else {
            throw KeepPrunedError(description: "the submenu title must not hold \(FreeText.ruleDescription)")
        }
        guard !ManifestLinter.isGenericSubmenuTitle(title) else {
            throw KeepPrunedError(description: "\"\(title)\" says nothing about what the submenu holds (HIG-3); "
                + "name what the commands do, for example \"Print & Export\"")
        }
    }

    /// This layout with `pruned` (in that order) kept in a submenu titled `title` instead of dropped
    /// (`proposals accept --keep-pruned TITLE`): nothing is lost, and the commands stay one level
    /// down. The submenu goes into the last group, before its destructive commands (which stay
    /// last), when that group has room; else into a new group of its own when there is room for a
    /// group (before the last group when that one holds destructive commands); otherwise it is refused.
    /// Commands already in the layout are not added twice.
    /// - Throws: `KeepPrunedError` for a bad title, a title taken by another submenu, or no room.
    public func keepingPruned(_ pruned: [String], title: String, destructive: Set<String>,
                              maxGroups: Int = LintOptions().maxGroups,
                              maxGroupSize: Int = LintOptions().maxGroupSize) throws(KeepPrunedError) -> Layout
    {
        let present = Set(commandsInOrder)
        var seen = Set<String>()
        let kept = pruned.filter { !present.contains($0) && seen.insert($0).inserted }
        guard !kept.isEmpty else { return self }
        try Self.checkKeptTitle(title)
        for group in groups {
            for case let .submenu(existing) in group where existing.title == title {
                throw KeepPrunedError(description: "the layout already has a submenu titled \"\(title)\"")
            }
        }
        let submenu = MenuItem.submenu(Submenu(title: title, items: kept.map(MenuItem.command)))
        var out = self
        func isDestructive(_ item: MenuItem) -> Bool {
            if case let .command(id) = item { return destructive.contains(id) }
            return false
        }
        if let last = out.groups.indices.last, out.groups[last].count < maxGroupSize {
            var index = out.groups[last].endIndex
            while index > out.groups[last].startIndex, isDestructive(out.groups[last][index - 1]) { index -= 1 }
            out.groups[last].insert(submenu, at: index)
            return out
        }
        if out.groups.count < maxGroups {
            if let last = out.groups.last, last.contains(where: isDestructive) {
                out.groups.insert([submenu], at: out.groups.count - 1)
            } else {
                out.groups.append([submenu])
            }
            return out
        }
        throw KeepPrunedError(description: "the proposal leaves no room for a submenu (\(groups.count) full groups); "
            + "accept it without --keep-pruned, or mark the commands keep in the manifest")
    }
}
