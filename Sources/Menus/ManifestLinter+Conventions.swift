extension ManifestLinter {
    /// CONVENTION findings of one menu (DESIGN.md, invariants 4-5): what proposals keep as the
    /// current menu has it, lint points out where the current menu breaks it.
    ///
    /// - Cut, Copy and Paste (declared `role`, else read from the title; the first command of each
    ///   role in reading order, so a "Copy…" deep in a Refactor submenu is not taken for the
    ///   clipboard's Copy when the menu has one before it): warning when the ones the menu has are not
    ///   in one container (a top-level group, or one submenu), warning when they are not in the order
    ///   Cut, Copy, Paste. Proposals keep them together only when the current menu has them together.
    /// - A `together` set: warning when the commands of it that the menu lists are not in one
    ///   container (the set moves as one unit, so one of the two declarations is wrong); info when
    ///   they are in another order than the set's, the order proposals keep.
    static func conventionFindings(elementType: String, located: [LocatedMenuItem], commands: [String: CommandInfo],
                                   together: [[String]]) -> [LintFinding]
    {
        var findings: [LintFinding] = []
        func add(_ severity: LintSeverity, _ path: ManifestPath, _ message: String) {
            findings.append(LintFinding(rule: .convention, severity: severity, elementType: elementType, path: path,
                                        message: message))
        }
        func name(_ id: String) -> String { Self.name(id, commands[id]) }

        var firstOfRole: [CommandRole: String] = [:]
        for entry in located {
            guard case let .command(id) = entry.item, let role = commands[id]?.conventionalRole,
                  CommandRole.clipboard.contains(role), firstOfRole[role] == nil else { continue }
            firstOfRole[role] = id
        }
        let clipboard = CommandRole.clipboard.compactMap { firstOfRole[$0] }
        if let placement = UnitPlacement(clipboard, located: located) {
            let words: [CommandRole: String] = [.cut: "Cut", .copy: "Copy", .paste: "Paste"]
            let present = CommandRole.clipboard.filter { firstOfRole[$0] != nil }.compactMap { words[$0] }
            let trio = present.count == 3 ? "Cut, Copy and Paste" : present.joined(separator: " and ")
            if let outlier = placement.outlier {
                add(.warning, outlier.path,
                    "\(trio) are split (\(placement.places(name))): people look for them side by side, "
                        + "so keep them in one group, in the order Cut, Copy, Paste")
            }
            if let (early, late) = placement.outOfOrder {
                add(.warning, early.path,
                    "\(name(early.id)) comes before \(name(late)); the convention is Cut, Copy, Paste, in that order")
            }
        }

        for (s, set) in together.enumerated() {
            guard let placement = UnitPlacement(set, located: located) else { continue }
            let setPath = ManifestPath([.key("together"), .index(s)])
            if let outlier = placement.outlier {
                add(.warning, outlier.path,
                    "\(setPath) moves \(set.map(name).joined(separator: ", ")) as one unit, but this menu splits "
                        + "it (\(placement.places(name))); keep its commands in one group, or take out of "
                        + "the set those that belong apart")
            }
            if let (early, late) = placement.outOfOrder {
                add(.info, early.path,
                    "\(name(early.id)) comes before \(name(late)) here, but \(setPath) lists "
                        + "\(set.joined(separator: ", ")), the order proposals keep; write the set in the order you mean")
            }
        }
        return findings
    }
}

/// Where the commands of one unit (the clipboard trio, a `together` set) sit in a menu: the first
/// occurrence of each, in reading order, with its container (the path of the group or submenu items
/// holding it).
struct UnitPlacement {
    struct Entry {
        let id: String
        let path: ManifestPath
        let container: ManifestPath
        let place: String
        /// Position in the unit's own order.
        let rank: Int
    }

    /// In reading order.
    let entries: [Entry]

    /// Nil when the menu lists fewer than 2 of `ids` (given in the unit's order).
    init?(_ ids: [String], located: [LocatedMenuItem]) {
        let rank = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var entries: [Entry] = []
        for item in located {
            guard case let .command(id) = item.item, let r = rank[id], seen.insert(id).inserted else { continue }
            let place = item.enclosingSubmenus.last.map { "submenu \"\($0)\" of group \(item.group + 1)" }
                ?? "group \(item.group + 1)"
            entries.append(Entry(id: id, path: item.path, container: ManifestPath(item.path.components.dropLast()),
                                 place: place, rank: r))
        }
        guard entries.count >= 2 else { return nil }
        self.entries = entries
    }

    /// The first entry, in reading order, outside the container of the first one; nil when all share it.
    var outlier: Entry? { entries.first { $0.container != entries[0].container } }

    /// The first entry, in reading order, that comes before one the unit puts ahead of it, and that one.
    var outOfOrder: (early: Entry, late: String)? {
        for (i, early) in entries.enumerated() {
            if let late = entries[(i + 1)...].first(where: { $0.rank < early.rank }) { return (early, late.id) }
        }
        return nil
    }

    /// `"Cut" (cut) in group 1; "Copy" (copy), "Paste" (paste) in submenu "Edit" of group 2`.
    func places(_ name: (String) -> String) -> String {
        var runs: [(container: ManifestPath, place: String, ids: [String])] = []
        for entry in entries {
            if let index = runs.firstIndex(where: { $0.container == entry.container }) {
                runs[index].ids.append(entry.id)
            } else {
                runs.append((entry.container, entry.place, [entry.id]))
            }
        }
        return runs.map { "\($0.ids.map(name).joined(separator: ", ")) in \($0.place)" }.joined(separator: "; ")
    }
}
