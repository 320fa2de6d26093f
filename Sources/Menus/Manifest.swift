/// An app's current menus, as kept in the app's repository (DESIGN.md, "Menu manifest").
public struct Manifest: Hashable, Sendable {
    public var app: String
    public var version: String
    /// Command id to its attributes.
    public var commands: [String: CommandInfo]
    /// Element type to its menu.
    public var menus: [String: ElementMenu]
    /// Category name (`CommandInfo.category`) to its attributes: the title a submenu made of the
    /// category carries.
    public var categories: [String: CategoryInfo]
    /// Sets of commands that move as one unit, in the order given (manifest `together`:
    /// `[["bold", "italic", "underline"]]`); a command is in at most one set.
    public var together: [[String]]

    public init(app: String, version: String, commands: [String: CommandInfo], menus: [String: ElementMenu],
                categories: [String: CategoryInfo] = [:], together: [[String]] = [])
    {
        self.app = app
        self.version = version
        self.commands = commands
        self.menus = menus
        self.categories = categories
        self.together = together
    }
}

/// Attributes of a category (manifest `categories`).
public struct CategoryInfo: Hashable, Sendable {
    /// What a submenu holding the category is called (HIG-3: intuitive, action-oriented).
    public var title: String

    public init(title: String) { self.title = title }
}

/// Attributes of a command.
public struct CommandInfo: Hashable, Sendable {
    public var title: String
    /// Stays at the very end of the menu.
    public var destructive: Bool
    /// Keeps its place in the menu.
    public var pinned: Bool
    /// Never flagged for pruning.
    public var keep: Bool
    /// Semantic group; when nil, the command's group in the current layout is its category.
    public var category: String?
    /// A standard action with a platform convention (`CommandRole`), nil for any other command.
    public var role: CommandRole?

    public init(title: String, destructive: Bool = false, pinned: Bool = false, keep: Bool = false,
                category: String? = nil, role: CommandRole? = nil)
    {
        self.title = title
        self.destructive = destructive
        self.pinned = pinned
        self.keep = keep
        self.category = category
        self.role = role
    }
}

/// The declared menu of one element type.
public struct ElementMenu: Hashable, Sendable {
    public var layout: Layout
    /// The element type also has an edit menu (HIG-7).
    public var editMenu: Bool
    /// The element is shown with a preview, so an "Open" command is redundant (HIG-8).
    public var preview: Bool
    /// The layout's version as apps send it back with their events (`menu_version`): written by
    /// `menus export` and served by `GET /v1/menus`; in an imported manifest, the version the app
    /// ships this menu under (the manifest's `version` when absent). Not part of the layout: two
    /// menus that differ only here hold the same layout.
    public var menuVersion: String?
    /// Titles of the layout's groups by group index (a group written `{"title": ..., "items": [...]}`);
    /// nil or missing for an untitled group. The title of the group's category (DESIGN.md, "Grouping").
    public var groupTitles: [String?]

    public init(layout: Layout, editMenu: Bool = false, preview: Bool = false, menuVersion: String? = nil,
                groupTitles: [String?] = [])
    {
        self.layout = layout
        self.editMenu = editMenu
        self.preview = preview
        self.menuVersion = menuVersion
        self.groupTitles = groupTitles.contains { $0 != nil } ? groupTitles : []
    }

    /// Whether the two menus declare the same layout with the same `edit_menu` and `preview`,
    /// whatever their `menuVersion`.
    public func sameLayout(as other: ElementMenu) -> Bool {
        layout == other.layout && editMenu == other.editMenu && preview == other.preview
    }

    /// The title of group `index`, if it has one.
    public func groupTitle(_ index: Int) -> String? {
        index < groupTitles.count ? groupTitles[index] : nil
    }
}
