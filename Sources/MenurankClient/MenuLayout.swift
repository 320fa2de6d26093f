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

/// The menu of one element type to show: groups (shown between separators) of items, and the
/// `menuVersion` to send with its events. For an element type in a rollout, these are the arm the
/// person is in (`RolloutArm`, from the rollout's salt and the configured `user`): the rollout's
/// layout for its share of people, the current one for the rest; the client stamps that version on
/// every event of the element type that gives none.
public struct MenuLayout: Sendable, Equatable {
    public var elementType: String
    public var menuVersion: String
    public var groups: [[MenuItem]]
    /// The element type's running rollout, when the server serves one.
    public var rollout: MenuRollout?
    /// True when `groups` and `menuVersion` are the rollout's layout.
    public var isRolloutArm: Bool

    public init(elementType: String, menuVersion: String, groups: [[MenuItem]], rollout: MenuRollout? = nil,
                isRolloutArm: Bool = false)
    {
        self.elementType = elementType
        self.menuVersion = menuVersion
        self.groups = groups
        self.rollout = rollout
        self.isRolloutArm = isRolloutArm
    }
}

/// A rollout as `GET /v1/menus` serves it: the new layout for `share` of people, picked by `salt`.
public struct MenuRollout: Sendable, Equatable {
    public var id: Int
    public var salt: String
    public var share: Double
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
