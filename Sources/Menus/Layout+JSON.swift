public import JSON

/// A layout in the manifest's shape: an array of groups, each an array whose items are command ids
/// and `{"submenu": title, "items": [...]}` objects. Used by the recommender's JSON output and by
/// the database, which stores layouts as JSON text.
extension Layout {
    public var jsonValue: JSONValue {
        .array(groups.map { group in .array(group.map(\.jsonValue)) })
    }

    /// Compact JSON text of `jsonValue`.
    public var jsonText: String { jsonValue.jsonText }

    /// Reads a layout in the manifest's shape. Every problem is reported with its path under `path`
    /// (for a stored layout the root, `$[0][1]`; inside a manifest `menus.X.groups[0][1]`).
    /// With `commands`, each command must be one of them; without, each command id must keep the
    /// character rule. Unknown members of submenu objects are ignored here.
    public init(json: JSONValue, path: ManifestPath = .root, commands: Set<String>? = nil) throws(ManifestError) {
        var decoder = ManifestDecoder()
        let layout = decoder.decodeLayout(json, at: path, declared: commands)
        guard let layout, decoder.issues.isEmpty else { throw ManifestError(issues: decoder.issues) }
        self = layout
    }

    /// Reads a layout from JSON text (as stored in the database).
    public init(jsonText: String, commands: Set<String>? = nil) throws(ManifestError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(jsonText)
        } catch {
            throw ManifestError(syntax: error)
        }
        try self.init(json: value, commands: commands)
    }
}

extension MenuItem {
    /// A command id as a string, a submenu as `{"submenu": title, "items": [...]}`.
    public var jsonValue: JSONValue {
        switch self {
        case let .command(id): return .string(id)
        case let .submenu(sub): return ["submenu": .string(sub.title), "items": .array(sub.items.map(\.jsonValue))]
        }
    }
}
