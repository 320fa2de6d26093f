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

    /// The `menu_version` of one event: the rollout's for a person in its new arm.
    public func menuVersion(of event: SimulationEvent) -> String? {
        if event.inRollout, let rollout = elementTypes[event.elementType].rollout { return rollout.menuVersion }
        return menuVersion(ofElementType: event.elementType)
    }

    /// The menu items as the event's person saw them: the rollout's layout in its new arm.
    public func items(of event: SimulationEvent) -> [SimulationMenuItem] {
        let element = elementTypes[event.elementType]
        return event.inRollout ? element.rollout?.items ?? element.items : element.items
    }
}

/// A rollout of an element type (the `rollout` member of `GET /v1/menus`): the people whose hash of
/// the salt and their id falls below the share see `items` (the rollout's layout, same commands in
/// the same order as the element type's items, at their new places) and send `menuVersion`.
public struct SimulationRolloutArm: Sendable, Equatable {
    public var salt: String
    public var share: Double
    public var items: [SimulationMenuItem]
    public var menuVersion: String
}

/// One kind of element and its context menu, flattened to the commands a person can pick.
public struct SimulationElementType: Sendable, Equatable {
    public var name: String
    public var items: [SimulationMenuItem]
    /// The `menu_version` its events carry, when the layout shown has its own (`showing(_:)`);
    /// else the profile's.
    public var menuVersion: String? = nil
    /// The element type's rollout, when the layouts shown serve one (`showing(_:)`).
    public var rollout: SimulationRolloutArm? = nil
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
