import Menus

extension Layout {
    /// A text that two layouts share only when they are equal, so comparing it orders layouts
    /// totally (a tie-break that depends on nothing but the layouts themselves). Command ids are
    /// printable ASCII and titles are written quoted and escaped (`debugDescription`), so the
    /// control characters that separate them occur nowhere else.
    var orderingKey: String {
        func key(_ items: [MenuItem]) -> String {
            items.map { item in
                switch item {
                case let .command(id): "c" + id
                case let .submenu(submenu): "s" + submenu.title.debugDescription + "\u{1D}" + key(submenu.items) + "\u{1C}"
                }
            }.joined(separator: "\u{1F}")
        }
        return groups.map(key).joined(separator: "\u{1E}")
    }
}
