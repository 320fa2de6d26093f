extension SimulationProfile {
    /// A realistic default: a file manager, a photo library, text editing and mail, each element type
    /// with a menu of the size real apps ship (8-12 commands, one submenu).
    public static let builtIn = SimulationProfile(
        app: "demo",
        menuVersion: "2026.11.1",
        elementTypes: [
            element("files.file", [
                ["open_with", "quick_look"],
                ["rename", "duplicate", "move_to", "copy"],
                ["compress", "share", ["Tags": ["tag_red", "tag_green", "tag_blue"]]],
                ["get_info", "move_to_trash"],
            ]),
            element("text.selection", [
                ["cut", "copy", "paste"],
                ["look_up", "translate", "search_web"],
                ["share", ["Spelling and Grammar": ["show_spelling", "check_document"]]],
            ]),
            element("photos.asset", [
                ["copy", "share", "favorite"],
                ["add_to_album", "edit", "rotate", "duplicate"],
                ["hide", "delete"],
            ]),
            element("files.folder", [
                ["open_in_new_tab", "new_folder"],
                ["rename", "get_info", "compress", "copy_path"],
                ["share", "move_to_trash"],
            ]),
            element("mail.message", [
                ["reply", "reply_all", "forward"],
                ["move", "archive", "flag"],
                [["Share": ["copy_link", "print"]]],
                ["delete"],
            ]),
        ]
    )

    /// Builds an element type from groups whose entries are a command name or a one-entry
    /// dictionary `[submenu title: commands]`.
    private static func element(_ name: String, _ groups: [[SimulationMenuEntry]]) -> SimulationElementType {
        var items: [SimulationMenuItem] = []
        var row = 0
        for group in groups {
            for entry in group {
                switch entry {
                case let .command(command):
                    items.append(SimulationMenuItem(command: command, position: row, inSubmenu: false))
                case let .submenu(commands):
                    for (offset, command) in commands.enumerated() {
                        items.append(SimulationMenuItem(command: command, position: row + 1 + offset, inSubmenu: true))
                    }
                }
                row += 1
            }
        }
        return SimulationElementType(name: name, items: items)
    }
}

/// One entry of a built-in menu group, written as a string literal or a `[title: commands]` literal.
private enum SimulationMenuEntry: ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral {
    case command(String)
    case submenu([String])

    init(stringLiteral value: String) { self = .command(value) }
    init(dictionaryLiteral elements: (String, [String])...) { self = .submenu(elements.flatMap(\.1)) }
}
