public import Menus

/// Where a command stands in a layout.
public struct LayoutPosition: Hashable, Sendable {
    /// Group index (0-based).
    public var group: Int
    /// Index of the top-level item within the group (the command, or the submenu holding it).
    public var index: Int
    /// Titles of the submenus holding the command, outermost first; empty at the top level.
    public var submenus: [String]
    /// Index within the innermost submenu; nil at the top level.
    public var submenuIndex: Int?
    /// Items scanned to reach the command (see `ScanEvidence`).
    public var scanCost: Int

    public init(group: Int, index: Int, submenus: [String], submenuIndex: Int?, scanCost: Int) {
        self.group = group
        self.index = index
        self.submenus = submenus
        self.submenuIndex = submenuIndex
        self.scanCost = scanCost
    }

    public var isInSubmenu: Bool { !submenus.isEmpty }

    /// The position of every command of a layout (its first listing).
    public static func positions(in layout: Layout) -> [String: LayoutPosition] {
        var out: [String: LayoutPosition] = [:]
        var flat = 0
        func visit(_ items: [MenuItem], group: Int, index: Int?, path: [String], base: Int) {
            for (position, item) in items.enumerated() {
                let cost = base + position + 1
                let top = index ?? position
                switch item {
                case let .command(id):
                    if out[id] == nil {
                        out[id] = LayoutPosition(group: group, index: top, submenus: path,
                                                 submenuIndex: path.isEmpty ? nil : position, scanCost: cost)
                    }
                case let .submenu(submenu):
                    visit(submenu.items, group: group, index: top, path: path + [submenu.title], base: cost)
                }
            }
        }
        for (group, items) in layout.groups.enumerated() {
            visit(items, group: group, index: nil, path: [], base: flat)
            flat += items.count
        }
        return out
    }
}
