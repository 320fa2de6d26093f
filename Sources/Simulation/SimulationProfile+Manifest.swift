public import JSON

extension SimulationProfile {
    /// The element types and menus of a menu manifest (DESIGN.md, "Menu manifest"), read only as far
    /// as the simulation needs: app name, version, and each menu's commands in the order shown.
    /// Nested submenus are flattened; a command listed twice keeps its first place.
    public static func fromManifest(_ manifest: JSONValue) throws(SimulationError) -> SimulationProfile {
        guard manifest.objectValue != nil else {
            throw SimulationError(.invalidManifest, "$: expected an object, found \(manifest.typeName)")
        }
        guard let menus = manifest["menus"]?.objectValue else {
            throw SimulationError(.invalidManifest, "$.menus: expected an object of menus")
        }
        var elementTypes: [SimulationElementType] = []
        for (name, menu) in menus {
            guard let groups = menu["groups"]?.arrayValue else {
                throw SimulationError(.invalidManifest, "$.menus.\(name).groups: expected an array of groups")
            }
            var items: [SimulationMenuItem] = []
            var seen: Set<String> = []
            var row = 0
            for (g, group) in groups.enumerated() {
                guard let entries = group.arrayValue else {
                    throw SimulationError(.invalidManifest, "$.menus.\(name).groups[\(g)]: expected an array")
                }
                for (e, entry) in entries.enumerated() {
                    let path = "$.menus.\(name).groups[\(g)][\(e)]"
                    try collect(entry, path: path, row: row, inSubmenu: false, into: &items, seen: &seen)
                    row += 1
                }
            }
            if !items.isEmpty { elementTypes.append(SimulationElementType(name: name, items: items)) }
        }
        guard !elementTypes.isEmpty else {
            throw SimulationError(.invalidManifest, "$.menus: no menu with at least one command")
        }
        return SimulationProfile(
            app: manifest["app"]?.stringValue ?? "app",
            menuVersion: manifest["version"]?.stringValue ?? "",
            elementTypes: elementTypes
        )
    }

    /// Appends the commands of one menu entry: a command name, or a submenu whose commands come
    /// right after its own row.
    private static func collect(
        _ entry: JSONValue, path: String, row: Int, inSubmenu: Bool,
        into items: inout [SimulationMenuItem], seen: inout Set<String>
    ) throws(SimulationError) {
        if let command = entry.stringValue {
            if seen.insert(command).inserted {
                items.append(SimulationMenuItem(command: command, position: row, inSubmenu: inSubmenu))
            }
            return
        }
        guard let children = entry["items"]?.arrayValue else {
            throw SimulationError(.invalidManifest, "\(path): expected a command name or {\"submenu\", \"items\"}")
        }
        for (i, child) in children.enumerated() {
            try collect(child, path: "\(path).items[\(i)]", row: row + 1 + i, inSubmenu: true, into: &items, seen: &seen)
        }
    }
}
