import Menus

/// A command of the current layout as the recommender works with it.
struct MenuEntry: Sendable {
    /// Semantic group: the command's category, else its group in the current layout.
    enum Category: Hashable, Sendable {
        case named(String)
        case group(Int)
    }

    let id: String
    let count: Double
    let users: Int
    let info: CommandInfo
    /// Index of the command's first listing in the reading order of the layout arranged from.
    let read: Int
    /// Index in the reading order of the layout the proposal is made for; the starting order of
    /// every sort by use, so that each reordering is judged against that layout (equal to `read`
    /// except while a proposal settles, see `Recommender.recommend`).
    let origin: Int
    /// Group of the first listing.
    let group: Int
    /// Index, within that group, of the top-level item holding the first listing (the command
    /// itself or its outermost submenu).
    let slot: Int
    /// Title of the innermost submenu holding the first listing, if any.
    let submenu: String?

    var category: Category { info.category.map { .named($0) } ?? .group(group) }

    /// The distinct commands of a layout, flattened in reading order (first listing wins), with
    /// `origin` from `origins` when given.
    static func entries(of layout: Layout, commands: [String: CommandInfo], selections: [String: Double],
                        users: [String: Int], origins: [String: Int]? = nil) -> [MenuEntry]
    {
        var out: [MenuEntry] = []
        var seen = Set<String>()
        func visit(_ item: MenuItem, group: Int, slot: Int, submenu: String?) {
            switch item {
            case let .command(id):
                guard seen.insert(id).inserted else { return }
                out.append(MenuEntry(id: id, count: selections[id] ?? 0, users: users[id] ?? 0,
                                     info: commands[id] ?? CommandInfo(title: id), read: out.count,
                                     origin: origins?[id] ?? out.count, group: group,
                                     slot: slot, submenu: submenu))
            case let .submenu(inner):
                for child in inner.items { visit(child, group: group, slot: slot, submenu: inner.title) }
            }
        }
        for (group, items) in layout.groups.enumerated() {
            for (slot, item) in items.enumerated() { visit(item, group: group, slot: slot, submenu: nil) }
        }
        return out
    }
}
