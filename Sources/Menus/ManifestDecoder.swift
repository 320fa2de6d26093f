import JSON
import Suggestions

/// Turns a parsed JSON document into a `Manifest` or a `Layout`, collecting every problem with its
/// path instead of stopping at the first one.
struct ManifestDecoder {
    /// Reading a manifest that an earlier import stored (`ManifestParser.loadStored`): what earlier
    /// versions accepted without reading is skipped into `ignored` instead of failing the load.
    var tolerant = false
    private(set) var issues: [ManifestIssue] = []
    /// What a tolerant read skipped: unknown members, a `role` or a `together` that does not read.
    private(set) var ignored: [ManifestIssue] = []

    init(tolerant: Bool = false) { self.tolerant = tolerant }

    mutating func fail(_ path: ManifestPath, _ message: String) {
        issues.append(ManifestIssue(path: path, message: message))
    }

    /// A problem with what earlier versions did not read: an issue, or in a tolerant read, skipped.
    mutating func failUnlessTolerant(_ issue: ManifestIssue) {
        if tolerant { ignored.append(issue) } else { issues.append(issue) }
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

    /// Every member not in `known` is an issue naming it, with the nearest known member when one is
    /// close (a misspelt `destrutive` would otherwise leave Delete silently not destructive).
    /// `owner` says whose members these are: "a command's".
    mutating func refuseUnknownMembers(_ members: [(key: String, value: JSONValue)], at path: ManifestPath,
                                       known: [String], owner: String)
    {
        for member in members where !known.contains(member.key) {
            var message = "unknown member \(quoted(member.key))"
            if let near = Suggestion.closest(to: member.key, among: known) { message += "; did you mean \(quoted(near))?" }
            message += " (\(owner) members are \(known.joined(separator: ", ")))"
            failUnlessTolerant(ManifestIssue(path: path.appending(member.key), message: message))
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
        refuseUnknownMembers(top, at: .root, known: ["app", "version", "categories", "together", "commands", "menus"],
                             owner: "a manifest's")
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
                    refuseUnknownMembers(attributes, at: entryPath, known: ["title"], owner: "a category's")
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
        let together = lookup(top, "together").map { decodeTogether($0, declared: declared) } ?? []

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
        return Manifest(app: app, version: version, commands: commands, menus: menus, categories: categories,
                        together: together)
    }

    mutating func decodeCommand(id: String, _ value: JSONValue) -> CommandInfo? {
        let path = ManifestPath.command(id)
        if !MenuIdentifier.isValid(id) {
            fail(path, "command id \(quoted(id)) \(MenuIdentifier.ruleDescription)")
        }
        guard let attributes = members(of: value, at: path, expecting: "an object of command attributes") else {
            return nil
        }
        refuseUnknownMembers(attributes, at: path, known: ["title", "destructive", "pinned", "keep", "category", "role"],
                             owner: "a command's")
        let title = requiredString(attributes, "title", at: path, meaning: "the command's title", allowEmpty: false)
        let destructive = optionalBool(attributes, "destructive", at: path)
        let pinned = optionalBool(attributes, "pinned", at: path)
        let keep = optionalBool(attributes, "keep", at: path)
        let category = optionalString(attributes, "category", at: path)
        let role = optionalRole(attributes, at: path)
        guard let title else { return nil }
        return CommandInfo(title: title, destructive: destructive, pinned: pinned, keep: keep, category: category,
                           role: role)
    }

    /// A command's `role`: one of `CommandRole`'s names. Read as declared: a command without one gets
    /// none here (the title inference of Cut, Copy and Paste is for those who apply the convention).
    mutating func optionalRole(_ members: [(key: String, value: JSONValue)], at path: ManifestPath) -> CommandRole? {
        guard let value = lookup(members, "role") else { return nil }
        let known = CommandRole.allCases.map(\.rawValue)
        let rolePath = path.appending("role")
        guard let name = value.stringValue else {
            failUnlessTolerant(ManifestIssue(
                path: rolePath, message: "expected a string (a role: \(known.joined(separator: ", "))), found \(value.typeName)"))
            return nil
        }
        guard let role = CommandRole(rawValue: name) else {
            var message = "unknown role \(quoted(name))"
            if let near = Suggestion.closest(to: name, among: known) { message += "; did you mean \(quoted(near))?" }
            message += " (the roles are \(known.joined(separator: ", ")))"
            failUnlessTolerant(ManifestIssue(path: rolePath, message: message))
            return nil
        }
        return role
    }

    /// The top-level `together`: sets of declared commands, each of at least 2 different commands, no
    /// command in two sets. A problem anywhere refuses the whole member (in a tolerant read it is
    /// skipped whole: a set read in part would move commands the author did not ask to move).
    mutating func decodeTogether(_ value: JSONValue, declared: Set<String>?) -> [[String]] {
        let path = ManifestPath([.key("together")])
        var problems: [ManifestIssue] = []
        func problem(_ at: ManifestPath, _ message: String) { problems.append(ManifestIssue(path: at, message: message)) }
        var sets: [[String]] = []
        if let setValues = value.arrayValue {
            var setOf: [String: Int] = [:]
            for (s, setValue) in setValues.enumerated() {
                let setPath = path.appending(s)
                guard let itemValues = setValue.arrayValue else {
                    problem(setPath, "expected a set (an array of command ids), found \(setValue.typeName)")
                    continue
                }
                if itemValues.count < 2 {
                    problem(setPath, "a set moves 2 or more commands as one unit; this one has \(itemValues.count)")
                }
                var set: [String] = []
                var indexInSet: [String: Int] = [:]
                for (i, itemValue) in itemValues.enumerated() {
                    let itemPath = setPath.appending(i)
                    guard let id = itemValue.stringValue else {
                        problem(itemPath, "expected a command id (a string), found \(itemValue.typeName)")
                        continue
                    }
                    if let declared, !declared.contains(id) {
                        problem(itemPath, "command \(quoted(id)) is not declared in commands")
                        continue
                    }
                    if let first = indexInSet[id] {
                        problem(itemPath, "command \(quoted(id)) is listed twice in this set (first at \(setPath.appending(first))); list it once")
                        continue
                    }
                    indexInSet[id] = i
                    if let other = setOf[id] {
                        problem(itemPath, "command \(quoted(id)) is already in the set at \(path.appending(other)); "
                                    + "a command moves with one set, so merge the two sets or keep it in one")
                        continue
                    }
                    setOf[id] = s
                    set.append(id)
                }
                sets.append(set)
            }
        } else {
            problem(path, "expected an array of sets, each an array of command ids, found \(value.typeName)")
        }
        guard problems.isEmpty else {
            problems.forEach { failUnlessTolerant($0) }
            return []
        }
        return sets
    }

    mutating func decodeMenu(elementType: String, _ value: JSONValue, declared: Set<String>?) -> ElementMenu? {
        let path = ManifestPath.menu(elementType)
        if !MenuIdentifier.isValid(elementType) {
            fail(path, "element type \(quoted(elementType)) \(MenuIdentifier.ruleDescription)")
        }
        guard let attributes = members(of: value, at: path, expecting: "an object (the element type's menu)") else {
            return nil
        }
        refuseUnknownMembers(attributes, at: path, known: ["groups", "edit_menu", "preview", "menu_version"],
                             owner: "a menu's")
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
            refuseUnknownMembers(attributes, at: groupPath, known: ["title", "items"], owner: "a titled group's")
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
            refuseUnknownMembers(attributes, at: path, known: ["submenu", "items"], owner: "a submenu's")
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
