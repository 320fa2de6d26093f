/// What the simulated app looks like: its element types and, for each, the commands of its menu in
/// the order they are shown. Popularity is not part of the profile: the generator derives it from
/// the seed.
struct SimulationProfile: Sendable, Equatable {
    var app: String
    var menuVersion: String
    var elementTypes: [SimulationElementType]
}

/// One kind of element and its context menu, flattened to the commands a person can pick.
struct SimulationElementType: Sendable, Equatable {
    var name: String
    var items: [SimulationMenuItem]
}

/// A command as shown in a menu. `position` is its index in the menu as shown, a submenu's commands
/// counting from the submenu's own row (a submenu item costs its submenu's position plus its own).
struct SimulationMenuItem: Sendable, Equatable {
    var command: String
    var position: Int
    var inSubmenu: Bool
}
