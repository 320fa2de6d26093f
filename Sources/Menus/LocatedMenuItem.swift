/// A menu item together with where it sits: its JSON path in the manifest, its group and depth.
public struct LocatedMenuItem: Hashable, Sendable {
    /// `menus.X.groups[g][i]`, then `.items[j]` for each submenu level.
    public let path: ManifestPath
    public let item: MenuItem
    /// Index of the top-level group the item belongs to.
    public let group: Int
    /// 0 for a top-level item, 1 inside a submenu, 2 inside a submenu of a submenu, ...
    public let depth: Int
    /// The submenus holding the item, outermost first (empty at the top level).
    public let enclosingSubmenus: [String]

    public init(path: ManifestPath, item: MenuItem, group: Int, depth: Int, enclosingSubmenus: [String]) {
        self.path = path
        self.item = item
        self.group = group
        self.depth = depth
        self.enclosingSubmenus = enclosingSubmenus
    }
}
