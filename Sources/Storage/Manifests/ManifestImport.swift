/// What `ManifestStore.importManifest` did.
public struct ManifestImport: Hashable, Sendable {
    /// What happened to one element type's layout.
    public enum Change: String, Hashable, Sendable {
        /// The element type had no layout; version 1 was stored.
        case added
        /// The manifest's layout (or its `edit_menu` / `preview`) differs from the current one; a new
        /// version was stored.
        case changed
        /// Same as the current layout; nothing stored.
        case unchanged
        /// The element type has a stored layout but the manifest no longer declares it; its layouts
        /// are kept (and no longer exported or recommended).
        case dropped
    }

    public struct Entry: Hashable, Sendable {
        public var elementType: String
        public var change: Change
        /// The current version before the import (nil when there was none).
        public var previousVersion: Int?
        /// The current version after the import (for `dropped`, the version that stays stored).
        public var version: Int?
        /// The `menu_version` of the current layout after the import.
        public var menuVersion: String?

        public init(elementType: String, change: Change, previousVersion: Int?, version: Int?,
                    menuVersion: String? = nil)
        {
            self.menuVersion = menuVersion
            self.elementType = elementType
            self.change = change
            self.previousVersion = previousVersion
            self.version = version
        }
    }

    public var appID: Int32
    public var manifestID: Int
    /// By element type.
    public var entries: [Entry]

    public init(appID: Int32, manifestID: Int, entries: [Entry]) {
        self.appID = appID
        self.manifestID = manifestID
        self.entries = entries
    }
}
