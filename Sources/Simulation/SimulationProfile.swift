/// What the simulated app looks like: its element types and, for each, the commands of its menu in
/// the order they are shown. Popularity is not part of the profile: the generator derives it from
/// the seed.
public struct SimulationProfile: Sendable, Equatable {
    public var app: String
    public var menuVersion: String
    public var elementTypes: [SimulationElementType]

    /// The `menu_version` the events of element type `index` carry: its layout's, else the
    /// profile's; nil when that is empty (the events then carry none).
    public func menuVersion(ofElementType index: Int) -> String? {
        let version = elementTypes[index].menuVersion ?? menuVersion
        return version.isEmpty ? nil : version
    }
}

/// One kind of element and its context menu, flattened to the commands a person can pick.
public struct SimulationElementType: Sendable, Equatable {
    public var name: String
    public var items: [SimulationMenuItem]
    /// The `menu_version` its events carry, when the layout shown has its own (`showing(_:)`);
    /// else the profile's.
    public var menuVersion: String? = nil
}

/// A command as shown in a menu. `position` is its index in the menu as shown, a submenu's commands
/// counting from the submenu's own row (a submenu item costs its submenu's position plus its own).
public struct SimulationMenuItem: Sendable, Equatable {
    public var command: String
    public var position: Int
    public var inSubmenu: Bool
    /// False when the layout shown leaves the command out (a pruned command): a person who wants
    /// it looks through the menu, does not find it, and dismisses the menu.
    public var shown: Bool = true
}
