public import CivilTime
public import Menus

/// One version of an element type's layout, as stored in `layouts`.
public struct LayoutRecord: Hashable, Sendable {
    public var appID: Int32
    public var elementType: String
    /// 1 for the first layout of the element type; the highest version is the current layout.
    public var version: Int
    public var layout: Layout
    public var editMenu: Bool
    public var preview: Bool
    public var source: LayoutSource
    /// The manifest the layout was imported from (or, for an accepted proposal, the manifest of the
    /// layout it replaced).
    public var manifestID: Int?
    /// The accepted proposal, for `source == .proposal`.
    public var proposalID: Int64?
    public var createdAt: UTCTimestamp
    /// The version string apps send back as `menu_version` (see `MenuVersionText`).
    public var menuVersion: String

    public init(appID: Int32, elementType: String, version: Int, layout: Layout, editMenu: Bool, preview: Bool,
                source: LayoutSource, manifestID: Int?, proposalID: Int64?, createdAt: UTCTimestamp, menuVersion: String)
    {
        self.menuVersion = menuVersion
        self.appID = appID
        self.elementType = elementType
        self.version = version
        self.layout = layout
        self.editMenu = editMenu
        self.preview = preview
        self.source = source
        self.manifestID = manifestID
        self.proposalID = proposalID
        self.createdAt = createdAt
    }

    /// The element type's menu as the manifest model holds it, with its menu version.
    public var menu: ElementMenu {
        ElementMenu(layout: layout, editMenu: editMenu, preview: preview, menuVersion: menuVersion)
    }
}
