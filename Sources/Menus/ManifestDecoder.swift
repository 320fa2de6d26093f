import JSON

/// Turns a parsed JSON document into a `Manifest` or a `Layout`, collecting every problem with its
/// path instead of stopping at the first one.
struct ManifestDecoder {
    private(set) var issues: [ManifestIssue] = []
    private(set) var unknownKeys: [ManifestPath] = []

    mutating func fail(_ path: ManifestPath, _ message: String) {
        issues.append(ManifestIssue(path: path, message: message))
    }

    /// Members of an object, first occurrence of each name; a repeated name is an issue (which of
    /// the two would count is not something a manifest should leave open).
    mutating func members(of value: JSONValue, at path: ManifestPath, expecting what: String)
        -> [(key: String, value: JSONValue)]?
    {
        guard let members = value.objectValue else {
            fail(path, "expected \(what), found \(value.typeName)")
            return nil
        }
        var seen = Set<String>()
        var out: [(key: String, value: JSONValue)] = []
        for member in members {
            if seen.insert(member.key).inserted {
                out.append(member)
            } else {
                fail(path.appending(member.key), "\"\(member.key)\" appears more than once in this object")
            }
        }
        return out
    }

    mutating func noteUnknownMembers(_ members: [(key: String, value: JSONValue)], at path: ManifestPath,
                                     known: Set<String>)
    {
        for member in members where !known.contains(member.key) {
            unknownKeys.append(path.appending(member.key))
        }
    }

    private func lookup(_ members: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
        members.first(where: { $0.key == key })?.value
    }

    mutating func requiredString(_ members: [(key: String, value: JSONValue)], _ key: String, at path: ManifestPath,
                                 meaning: String, allowEmpty: Bool) -> String?
    {
        guard let value = lookup(members, key) else {
            fail(path.appending(key), "missing required member: a string, \(meaning)")
            return nil
        }
        guard let string = value.stringValue else {
            fail(path.appending(key), "expected a string (\(meaning)), found \(value.typeName)")
            return nil
        }
        if !allowEmpty && string.isEmpty {
            fail(path.appending(key), "must not be empty")
            return nil
        }
        return string
    }

    mutating func optionalString(_ members: [(key: String, value: JSONValue)], _ key: String, at path: ManifestPath)
        -> String?
    {
        guard let value = lookup(members, key) else { return nil }
        guard let string = value.stringValue else {
            fail(path.appending(key), "expected a string, found \(value.typeName)")
            return nil
        }
        return string
    }

    mutating func optionalBool(_ members: [(key: String, value: JSONValue)], _ key: String, at path: ManifestPath)
        -> Bool
    {
        guard let value = lookup(members, key) else { return false }
        guard let flag = value.boolValue else {
            fail(path.appending(key), "expected true or false, found \(describe(value))")
            return false
        }
        return flag
    }

    private func describe(_ value: JSONValue) -> String {
        guard case let .string(s) = value, s.count <= 40 else { return value.typeName }
        return "the string \(quoted(s))"
    }

    // MARK: Manifest

    mutating func decodeManifest(_ root: JSONValue) -> Manifest? {
        guard let top = members(of: root, at: .root, expecting: "an object (a menu manifest)") else { return nil }
        noteUnknownMembers(top, at: .root, known: ["app", "version", "categories", "commands", "menus"])
        let app = requiredString(top, "app", at: .root, meaning: "the app's name", allowEmpty: false)
        let version = optionalString(top, "version", at: .root) ?? ""

        var categories: [String: CategoryInfo] = [:]
        if let value = lookup(top, "categories") {
            let path = ManifestPath([.key("categories")])
            if let entries = members(of: value, at: path, expecting: "an object of category names to their attributes") {
                for entry in entries {
                    let entryPath = path.appending(entry.key)
                    if entry.key.isEmpty { fail(entryPath, "a category name must not be empty") }
                    guard let attributes = members(of: entry.value, at: entryPath,
                                                   expecting: "an object of category attributes") else { continue }
                    noteUnknownMembers(attributes, at: entryPath, known: ["title"])
                    if let title = requiredString(attributes, "title", at: entryPath, meaning: "the category's title",
                                                  allowEmpty: false)
                    {
                        categories[entry.key] = CategoryInfo(title: title)
                    }
                }
            }
        }

        var commands: [String: CommandInfo] = [:]
        var declared: Set<String>? = nil
        if let value = lookup(top, "commands") {
            let path = ManifestPath([.key("commands")])
            if let entries = members(of: value, at: path, expecting: "an object of command ids to their attributes") {
                var ids = Set<String>()
                for entry in entries {
                    ids.insert(entry.key)
                    if let info = decodeCommand(id: entry.key, entry.value) { commands[entry.key] = info }
                }
                declared = ids
            }
        } else {
            fail(ManifestPath([.key("commands")]), "missing required member: an object of command ids to their attributes")
        }

        var menus: [String: ElementMenu] = [:]
        if let value = lookup(top, "menus") {
            let path = ManifestPath([.key("menus")])
            if let entries = members(of: value, at: path, expecting: "an object of element types to their menus") {
                for entry in entries {
                    if let menu = decodeMenu(elementType: entry.key, entry.value, declared: declared) {
                        menus[entry.key] = menu
                    }
                }
            }
        } else {
            fail(ManifestPath([.key("menus")]), "missing required member: an object of element types to their menus")
        }

        guard issues.isEmpty, let app else { return nil }
        return Manifest(app: app, version: version, commands: commands, menus: menus, categories: categories)
    }

    mutating func decodeCommand(id: String, _ value: JSONValue) -> CommandInfo? {
        let path = ManifestPath.command(id)
        if !MenuIdentifier.isValid(id) {
            fail(path, "command id \(quoted(id)) \(MenuIdentifier.ruleDescription)")
        }
        guard let attributes = members(of: value, at: path, expecting: "an object of command attributes") else {
            return nil
        }
        noteUnknownMembers(attributes, at: path, known: ["title", "destructive", "pinned", "keep", "category"])
        let title = requiredString(attributes, "title", at: path, meaning: "the command's title", allowEmpty: false)
        let destructive = optionalBool(attributes, "destructive", at: path)
        let pinned = optionalBool(attributes, "pinned", at: path)
        let keep = optionalBool(attributes, "keep", at: path)
        let category = optionalString(attributes, "category", at: path)
        guard let title else { return nil }
        return CommandInfo(title: title, destructive: destructive, pinned: pinned, keep: keep, category: category)
    }

    mutating func decodeMenu(elementType: String, _ value: JSONValue, declared: Set<String>?) -> ElementMenu? {
        let path = ManifestPath.menu(elementType)
        if !MenuIdentifier.isValid(elementType) {
            fail(path, "element type \(quoted(elementType)) \(MenuIdentifier.ruleDescription)")
        }
        guard let attributes = members(of: value, at: path, expecting: "an object (the element type's menu)") else {
            return nil
        }
        noteUnknownMembers(attributes, at: path, known: ["groups", "edit_menu", "preview", "menu_version"])
        let editMenu = optionalBool(attributes, "edit_menu", at: path)
        let preview = optionalBool(attributes, "preview", at: path)
        let menuVersion = optionalString(attributes, "menu_version", at: path)
        if let menuVersion, !MenuVersionText.isValid(menuVersion) {
            fail(path.appending("menu_version"), "menu_version \(MenuVersionText.ruleDescription)")
        }
        guard let groups = lookup(attributes, "groups") else {
            fail(path.appending("groups"), "missing required member: an array of groups, each an array of items")
            return nil
        }
        guard let (layout, titles) = decodeGroups(groups, at: path.appending("groups"), declared: declared) else {
            return nil
        }
        return ElementMenu(layout: layout, editMenu: editMenu, preview: preview, menuVersion: menuVersion,
                           groupTitles: titles)
    }

    /// A menu's groups: each an array of items, or a titled group `{"title": ..., "items": [...]}`.
    mutating func decodeGroups(_ value: JSONValue, at path: ManifestPath, declared: Set<String>?)
        -> (Layout, [String?])?
    {
        guard let groupValues = value.arrayValue else {
            fail(path, "expected an array of groups, found \(value.typeName)")
            return nil
        }
        var untitled: [JSONValue] = []
        var titles: [String?] = []
        var ok = true
        for (g, groupValue) in groupValues.enumerated() {
            guard case .object = groupValue else {
                untitled.append(groupValue)
                titles.append(nil)
                continue
            }
            let groupPath = path.appending(g)
            guard let attributes = members(of: groupValue, at: groupPath,
                                           expecting: "a group (an array of items, or an object with title and items)")
            else {
                ok = false
                continue
            }
            noteUnknownMembers(attributes, at: groupPath, known: ["title", "items"])
            let title = requiredString(attributes, "title", at: groupPath, meaning: "the group's title", allowEmpty: false)
            guard let items = lookup(attributes, "items") else {
                fail(groupPath.appending("items"), "missing required member: an array of the group's items")
                ok = false
                continue
            }
            guard items.arrayValue != nil else {
                fail(groupPath.appending("items"), "expected an array of the group's items, found \(items.typeName)")
                ok = false
                continue
            }
            // Items of a titled group are reported under `groups[g].items[i]`.
            var itemsOK = true
            var decoded: [MenuItem] = []
            for (i, itemValue) in items.arrayValue!.enumerated() {
                if let item = decodeItem(itemValue, at: groupPath.appending("items").appending(i), declared: declared) {
                    decoded.append(item)
                } else {
                    itemsOK = false
                }
            }
            guard itemsOK, let title else {
                ok = false
                continue
            }
            untitled.append(.array(decoded.map(\.jsonValue)))
            titles.append(title)
        }
        guard ok, let layout = decodeLayout(.array(untitled), at: path, declared: declared) else { return nil }
        return (layout, titles)
    }

    // MARK: Layout

    /// A layout: an array of groups, each an array of items. With `declared`, every command must be
    /// one of them; without it (a stored layout), every command id must keep the character rule.
    mutating func decodeLayout(_ value: JSONValue, at path: ManifestPath, declared: Set<String>?) -> Layout? {
        guard let groupValues = value.arrayValue else {
            fail(path, "expected an array of groups, found \(value.typeName)")
            return nil
        }
        var groups: [[MenuItem]] = []
        var ok = true
        for (g, groupValue) in groupValues.enumerated() {
            let groupPath = path.appending(g)
            guard let itemValues = groupValue.arrayValue else {
                fail(groupPath, "expected a group (an array of command ids and submenus), found \(groupValue.typeName)")
                ok = false
                continue
            }
            var items: [MenuItem] = []
            for (i, itemValue) in itemValues.enumerated() {
                if let item = decodeItem(itemValue, at: groupPath.appending(i), declared: declared) {
                    items.append(item)
                } else {
                    ok = false
                }
            }
            groups.append(items)
        }
        return ok ? Layout(groups: groups) : nil
    }

    mutating func decodeItem(_ value: JSONValue, at path: ManifestPath, declared: Set<String>?) -> MenuItem? {
        switch value {
        case let .string(id):
            if let declared {
                guard declared.contains(id) else {
                    fail(path, "command \(quoted(id)) is not declared in commands")
                    return nil
                }
            } else if !MenuIdentifier.isValid(id) {
                fail(path, "command id \(quoted(id)) \(MenuIdentifier.ruleDescription)")
                return nil
            }
            return .command(id)
        case .object:
            guard let attributes = members(of: value, at: path, expecting: "a submenu object") else { return nil }
            noteUnknownMembers(attributes, at: path, known: ["submenu", "items"])
            let title = requiredString(attributes, "submenu", at: path, meaning: "the submenu's title", allowEmpty: true)
            var items: [MenuItem]? = nil
            if let itemsValue = lookup(attributes, "items") {
                if let itemValues = itemsValue.arrayValue {
                    var decoded: [MenuItem] = []
                    var ok = true
                    for (i, itemValue) in itemValues.enumerated() {
                        if let item = decodeItem(itemValue, at: path.appending("items").appending(i), declared: declared) {
                            decoded.append(item)
                        } else {
                            ok = false
                        }
                    }
                    if ok { items = decoded }
                } else {
                    fail(path.appending("items"), "expected an array of the submenu's items, found \(itemsValue.typeName)")
                }
            } else {
                fail(path.appending("items"), "missing required member: an array of the submenu's items")
            }
            guard let title, let items else { return nil }
            return .submenu(Submenu(title: title, items: items))
        default:
            fail(path, "expected a command id (a string) or a submenu object, found \(value.typeName)")
            return nil
        }
    }

    private func quoted(_ s: String) -> String { JSONValue.string(s).jsonText }
}
