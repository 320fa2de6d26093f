/// The served menus of an app (`GET /v1/menus`): what to show, in order, and the version to send
/// back with each event (`menuVersion`), so menurank can measure the layout it served.
public struct MenuLayouts: Sendable, Equatable {
    public var app: String
    /// The version of the app's menus; pass it as `menuVersion` when recording.
    public var menuVersion: String
    /// By element type.
    public var menus: [String: MenuLayout]
    /// True when the server could not be reached and this is the copy cached on disk.
    public var isFromCache: Bool
}

/// The menu of one element type: groups (shown between separators) of items.
public struct MenuLayout: Sendable, Equatable {
    public var elementType: String
    public var menuVersion: String
    public var groups: [[MenuItem]]
}

/// A menu row: a command, or a titled submenu of commands.
public enum MenuItem: Sendable, Equatable {
    case command(MenuCommand)
    case submenu(title: String, commands: [MenuCommand])
}

public struct MenuCommand: Sendable, Equatable {
    /// The id to send as `command`.
    public var id: String
    public var title: String
    public var isDestructive: Bool
}
