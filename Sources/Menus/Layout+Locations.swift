extension Layout {
    /// Every item of the layout (submenus and the items inside them) in reading order, depth first,
    /// each with its JSON path under `groupsPath` (for a manifest, `ManifestPath.groups(elementType)`).
    public func locatedItems(under groupsPath: ManifestPath) -> [LocatedMenuItem] {
        var out: [LocatedMenuItem] = []
        func visit(_ item: MenuItem, path: ManifestPath, group: Int, enclosing: [String]) {
            out.append(LocatedMenuItem(path: path, item: item, group: group, depth: enclosing.count,
                                       enclosingSubmenus: enclosing))
            if case let .submenu(sub) = item {
                for (j, inner) in sub.items.enumerated() {
                    visit(inner, path: path.appending("items").appending(j), group: group, enclosing: enclosing + [sub.title])
                }
            }
        }
        for (g, group) in groups.enumerated() {
            for (i, item) in group.enumerated() {
                visit(item, path: groupsPath.appending(g).appending(i), group: g, enclosing: [])
            }
        }
        return out
    }

    /// Number of items at the top level (a submenu counts as one).
    public var topLevelItemCount: Int { groups.reduce(0) { $0 + $1.count } }
}
