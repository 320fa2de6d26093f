import Menus

/// One line of the item-by-item diff that text, Markdown and HTML output share: the proposed
/// layout in reading order (group separators, submenu headings), each command with its move, then
/// the commands that leave the menu.
enum DiffRow {
    /// A command of the proposed layout at `position` (`7.1`), `depth` submenus deep.
    case command(position: String, command: String, depth: Int, move: ItemMove?)
    /// A submenu heading of the proposed layout.
    case submenu(position: String, title: String, depth: Int)
    /// Between two groups, and before the commands leaving the menu.
    case separator
    /// A command of the current layout that is not in the proposal (pruned or removed).
    case leaving(command: String, move: ItemMove)

    static func rows(for document: ProposalDocument) -> [DiffRow] {
        let moves = document.moves
        var byCommand: [String: ItemMove] = [:]
        for move in moves where byCommand[move.command] == nil { byCommand[move.command] = move }
        var rows: [DiffRow] = []
        var top = 0
        func visit(_ item: MenuItem, path: [Int]) {
            let position = path.map(String.init).joined(separator: ".")
            switch item {
            case let .command(id):
                rows.append(.command(position: position, command: id, depth: path.count - 1, move: byCommand[id]))
            case let .submenu(submenu):
                rows.append(.submenu(position: position, title: submenu.title, depth: path.count - 1))
                for (index, inner) in submenu.items.enumerated() { visit(inner, path: path + [index + 1]) }
            }
        }
        for (g, group) in document.proposed.groups.enumerated() {
            if g > 0 { rows.append(.separator) }
            for item in group {
                top += 1
                visit(item, path: [top])
            }
        }
        let leaving = moves.filter { $0.to == nil }
        if !leaving.isEmpty {
            if !rows.isEmpty { rows.append(.separator) }
            rows += leaving.map { .leaving(command: $0.command, move: $0) }
        }
        return rows
    }
}
