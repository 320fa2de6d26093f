/// A category of the current layout (DESIGN.md, "Grouping"), as review output names it.
public struct CategoryOrigin: Hashable, Sendable {
    /// The manifest category's name, the current submenu's title, or "group N" (1-based) for a
    /// current group.
    public var name: String
    /// Its title from the manifest; nil when it has none (lint HIG-3 asks for one when a proposal
    /// needs the category as a submenu).
    public var title: String?

    public init(name: String, title: String?) {
        self.name = name
        self.title = title
    }
}

/// A submenu of a proposal and the categories of the current layout its commands come from.
public struct ProposedSubmenu: Hashable, Sendable {
    public var title: String
    /// Most-used first.
    public var categories: [CategoryOrigin]

    public init(title: String, categories: [CategoryOrigin]) {
        self.title = title
        self.categories = categories
    }
}
