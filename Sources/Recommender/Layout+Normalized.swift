public import Menus

extension Layout {
    /// The layout with empty submenus (recursively) and empty groups removed; what `changed`
    /// compares.
    public var normalized: Layout {
        func clean(_ items: [MenuItem]) -> [MenuItem] {
            items.compactMap { item in
                switch item {
                case .command: return item
                case let .submenu(submenu):
                    let inner = clean(submenu.items)
                    return inner.isEmpty ? nil : .submenu(Submenu(title: submenu.title, items: inner))
                }
            }
        }
        return Layout(groups: groups.map(clean).filter { !$0.isEmpty })
    }
}
