/// The menu of one element type: groups separated by separators, each an ordered list of items.
///
/// A layout read from a manifest describes a menu as it is, so it may break the rules a proposal
/// keeps (nested submenus, too many groups, a command listed twice); lint reports those.
public struct Layout: Hashable, Sendable {
    public var groups: [[MenuItem]]

    public init(groups: [[MenuItem]]) { self.groups = groups }

    /// Every command of the layout in reading order, submenus expanded (depth first), repeats kept.
    public var commandsInOrder: [String] {
        var out: [String] = []
        func visit(_ item: MenuItem) {
            switch item {
            case let .command(id): out.append(id)
            case let .submenu(sub): sub.items.forEach(visit)
            }
        }
        groups.forEach { $0.forEach(visit) }
        return out
    }

    /// The distinct commands of the layout, in order of first appearance.
    ///
    /// The recommender asks for these of every layout it weighs, thousands of times a night: for a
    /// menu of up to `linearDistinctLimit` listings a repeat is found by comparing with the
    /// commands kept so far (short strings compare without hashing), for a longer one with a set.
    public var distinctCommands: [String] {
        let all = commandsInOrder
        if all.count <= Self.linearDistinctLimit {
            var out: [String] = []
            out.reserveCapacity(all.count)
            for id in all where !out.contains(id) { out.append(id) }
            return out
        }
        var seen = Set<String>(minimumCapacity: all.count)
        return all.filter { seen.insert($0).inserted }
    }

    static let linearDistinctLimit = 32
}

/// One entry of a menu group.
public indirect enum MenuItem: Hashable, Sendable {
    case command(String)
    case submenu(Submenu)
}

/// A titled submenu. Proposals keep submenus one level deep; a manifest may nest them (HIG-4 lint).
public struct Submenu: Hashable, Sendable {
    public var title: String
    public var items: [MenuItem]

    public init(title: String, items: [MenuItem]) {
        self.title = title
        self.items = items
    }
}
