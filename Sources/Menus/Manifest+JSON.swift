public import JSON

extension Manifest {
    /// The manifest as JSON with members in a fixed order: `app`, `version` (when not empty),
    /// `categories` sorted by name (when any), `commands` sorted by id, `together` as declared (when
    /// any), `menus` sorted by element type. A command holds `title`, then `destructive`, `pinned`,
    /// `keep` only when true and `category` and `role` only when set; a menu holds `edit_menu` and
    /// `preview` only when true, then `groups` (titled groups as objects).
    public var jsonValue: JSONValue {
        var top: [(key: String, value: JSONValue)] = [(key: "app", value: .string(app))]
        if !version.isEmpty { top.append((key: "version", value: .string(version))) }
        if !categories.isEmpty {
            top.append((key: "categories", value: .object(categories.sorted { $0.key < $1.key }.map { entry in
                (key: entry.key, value: .object([(key: "title", value: .string(entry.value.title))]))
            })))
        }
        top.append((key: "commands", value: .object(commands.sorted { $0.key < $1.key }.map { entry in
            (key: entry.key, value: entry.value.jsonValue)
        })))
        if !together.isEmpty { top.append((key: "together", value: togetherJSON)) }
        top.append((key: "menus", value: .object(menus.sorted { $0.key < $1.key }.map { entry in
            (key: entry.key, value: entry.value.jsonValue)
        })))
        return .object(top)
    }

    /// `together` as JSON: its sets in the order declared, each with its commands in order.
    public var togetherJSON: JSONValue {
        .array(together.map { .array($0.map(JSONValue.string)) })
    }

    /// Reads a manifest from parsed JSON (see `ManifestParser`).
    public init(json: JSONValue) throws(ManifestError) {
        self = try ManifestParser.load(json: json).manifest
    }
}

extension CommandInfo {
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "title", value: .string(title))]
        if destructive { members.append((key: "destructive", value: true)) }
        if pinned { members.append((key: "pinned", value: true)) }
        if keep { members.append((key: "keep", value: true)) }
        if let category { members.append((key: "category", value: .string(category))) }
        if let role { members.append((key: "role", value: .string(role.rawValue))) }
        return .object(members)
    }
}

extension ElementMenu {
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let menuVersion { members.append((key: "menu_version", value: .string(menuVersion))) }
        if editMenu { members.append((key: "edit_menu", value: true)) }
        if preview { members.append((key: "preview", value: true)) }
        members.append((key: "groups", value: groupsJSON))
        return .object(members)
    }

    /// The groups in the manifest's shape: an untitled group as an array of items, a titled one as
    /// `{"title": ..., "items": [...]}`.
    public var groupsJSON: JSONValue {
        .array(layout.groups.enumerated().map { index, group in
            let items = JSONValue.array(group.map(\.jsonValue))
            guard let title = groupTitle(index) else { return items }
            return .object([(key: "title", value: .string(title)), (key: "items", value: items)])
        })
    }
}
