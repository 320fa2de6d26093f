import Menus

extension Layout {
    /// A one-line rendering for test messages: `[a b {Title: c d}] | [e]`.
    var compact: String {
        func render(_ item: MenuItem) -> String {
            switch item {
            case let .command(id): id
            case let .submenu(submenu): "{\(submenu.title): \(submenu.items.map(render).joined(separator: " "))}"
            }
        }
        return groups.map { "[" + $0.map(render).joined(separator: " ") + "]" }.joined(separator: " | ")
    }
}
