/// The current menus of an app as `GET /v1/menus` serves them: the newest layout of each element
/// type and the attributes of the commands they hold.
public struct ServedMenus: Sendable, Hashable {
    public struct Menu: Sendable, Hashable {
        public var elementType: String
        public var layoutVersion: Int32
        /// The stored layout: JSON text in the manifest's shape (an array of groups).
        public var layoutJSON: String
        public var editMenu: Bool
        public var preview: Bool
        /// The layout's `menu_version`, which apps send back with their events.
        public var menuVersion: String
        /// The running rollout of the element type, served beside the current layout while that
        /// layout is the one the rollout was made from.
        public var rollout: Rollout?
    }

    /// What a client needs to pick its arm of a rollout (see `RolloutRecord`).
    public struct Rollout: Sendable, Hashable {
        public var id: Int64
        public var salt: String
        public var share: Double
        /// The new arm's layout: JSON text in the manifest's shape.
        public var layoutJSON: String
        public var menuVersion: String
    }

    public struct Command: Sendable, Hashable {
        public var command: String
        public var title: String
        public var destructive: Bool
        public var pinned: Bool
        public var keep: Bool
        public var category: String?
    }

    /// The version of the newest imported manifest, or "" when none was imported.
    public var manifestVersion: String
    /// Menus by element type.
    public var menus: [Menu]
    /// Every command attribute row of the app, by command id.
    public var commands: [Command]
}
