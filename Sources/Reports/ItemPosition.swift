public import Menus

/// Where a command stands in a layout, counted the way people read a menu: 1-based, top-level
/// positions running on across groups (separators not counted).
///
/// In the DESIGN.md mail menu `forward` is at path [3] of group 1, and `print`, second in the
/// submenu "Share" that is the seventh top-level item, at path [7, 2] of group 3 (label `7.2`).
public struct ItemPosition: Hashable, Sendable {
    /// The group, 1-based.
    public var group: Int
    /// The top-level position (1-based, across groups), then the 1-based position inside each
    /// submenu holding the command, outermost first.
    public var path: [Int]
    /// Titles of the submenus holding the command, outermost first; empty at the top level.
    public var submenus: [String]

    public init(group: Int, path: [Int], submenus: [String]) {
        self.group = group
        self.path = path
        self.submenus = submenus
    }

    /// `3`, `7.2`.
    public var label: String { path.map(String.init).joined(separator: ".") }

    /// The position of every command of a layout, at its first listing.
    public static func positions(in layout: Layout) -> [String: ItemPosition] {
        var out: [String: ItemPosition] = [:]
        var top = 0
        func visit(_ item: MenuItem, group: Int, path: [Int], submenus: [String]) {
            switch item {
            case let .command(id):
                if out[id] == nil { out[id] = ItemPosition(group: group, path: path, submenus: submenus) }
            case let .submenu(submenu):
                for (index, inner) in submenu.items.enumerated() {
                    visit(inner, group: group, path: path + [index + 1], submenus: submenus + [submenu.title])
                }
            }
        }
        for (group, items) in layout.groups.enumerated() {
            for item in items {
                top += 1
                visit(item, group: group + 1, path: [top], submenus: [])
            }
        }
        return out
    }
}
