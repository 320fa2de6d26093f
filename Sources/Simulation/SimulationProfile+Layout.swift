public import JSON

extension SimulationProfile {
    /// The same app and the same people, shown other layouts: `layouts` is the document
    /// `GET /v1/menus` serves (or a manifest). Each element type keeps its commands in the profile's
    /// order, so the popularity the generator derives from the seed stays the same, while each
    /// command's position, submenu and whether it is shown at all come from the new layout, and
    /// the events carry the layout's `menu_version` (else the document's `version`). So a layout
    /// that puts the commands people use first makes their picks faster, as the latency model
    /// (`SimulationConfiguration`) grows with the scanned position. Element types the document does
    /// not list keep their layout. A menu with a `rollout` member puts people in both arms: those
    /// the device rule picks (`RolloutArm`) see the rollout's layout and send its version.
    public func showing(_ layouts: JSONValue) throws(SimulationError) -> SimulationProfile {
        let shown = try SimulationProfile.fromManifest(layouts)
        let menus = layouts["menus"]?.objectValue ?? []
        var out = self
        for (e, element) in elementTypes.enumerated() {
            guard let layout = shown.elementTypes.first(where: { $0.name == element.name }) else { continue }
            out.elementTypes[e].items = Self.placed(element.items, as: layout.items)
            let menu = menus.first { $0.key == element.name }?.value
            out.elementTypes[e].menuVersion = menu?["menu_version"]?.stringValue ?? layouts["version"]?.stringValue
            out.elementTypes[e].rollout = nil
            if let rollout = menu?["rollout"], let salt = rollout["salt"]?.stringValue,
               case .number(let number)? = rollout["share"], let share = Double(number.text),
               let version = rollout["menu_version"]?.stringValue, let groups = rollout["groups"]
            {
                let document: JSONValue = .object([("menus", .object([(element.name, .object([("groups", groups)]))]))])
                guard let arm = try SimulationProfile.fromManifest(document).elementTypes.first else { continue }
                out.elementTypes[e].rollout = SimulationRolloutArm(salt: salt, share: share,
                                                                   items: Self.placed(element.items, as: arm.items),
                                                                   menuVersion: version)
            }
        }
        return out
    }

    /// `items` (in the profile's order) at the places `shown` gives them; a command `shown` leaves
    /// out is not shown.
    private static func placed(_ items: [SimulationMenuItem], as shown: [SimulationMenuItem]) -> [SimulationMenuItem] {
        let places = Dictionary(shown.map { ($0.command, $0) }, uniquingKeysWith: { first, _ in first })
        return items.map { item in
            guard let place = places[item.command] else {
                var hidden = item
                hidden.shown = false
                return hidden
            }
            return SimulationMenuItem(command: item.command, position: place.position, inSubmenu: place.inSubmenu)
        }
    }
}
