import Menus

/// A layout as plain text lines: one line per item, a separator line between groups, submenu items
/// indented under their title.
enum PipelineLayoutText {
    static func lines(_ layout: Layout, titles: [String: CommandInfo], indent: String = "  ") -> String {
        var out = ""
        func visit(_ item: MenuItem, depth: Int) {
            let pad = indent + String(repeating: "    ", count: depth)
            switch item {
            case let .command(id):
                let title = titles[id]?.title
                out += pad + id + (title.map { $0 == id ? "" : "  (\($0))" } ?? "") + "\n"
            case let .submenu(submenu):
                out += pad + "\(submenu.title) >\n"
                submenu.items.forEach { visit($0, depth: depth + 1) }
            }
        }
        for (index, group) in layout.groups.enumerated() {
            if index > 0 { out += indent + "----\n" }
            group.forEach { visit($0, depth: 0) }
        }
        return out
    }
}
