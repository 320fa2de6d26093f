import Menus
import Recommender

extension InvariantChecker {
    /// A command's category as DESIGN.md ("Grouping") defines it, read here on its own: the manifest
    /// category; else the outermost current submenu with a good title; else the group's title; else
    /// its (untitled) group. Name and title.
    func categoryTable() -> [String: (name: String, title: String?)] {
        func good(_ title: String) -> Bool {
            !title.allSatisfy(\.isWhitespace) && !ManifestLinter.isGenericSubmenuTitle(title)
        }
        var out: [String: (name: String, title: String?)] = [:]
        for (g, group) in menu.layout.groups.enumerated() {
            let groupTitle = g < menu.groupTitles.count ? menu.groupTitles[g] : nil
            func visit(_ item: MenuItem, outer: String?) {
                switch item {
                case let .command(id):
                    guard out[id] == nil else { return }
                    if let name = commands[id]?.category {
                        let title = categories[name]?.title ?? name
                        out[id] = (name, good(title) ? title : nil)
                    } else if let outer {
                        out[id] = (outer, outer)
                    } else if let groupTitle, good(groupTitle) {
                        out[id] = ("group \(g + 1)", groupTitle)
                    } else {
                        out[id] = ("group \(g + 1)", nil)
                    }
                case let .submenu(submenu):
                    let next = outer ?? (good(submenu.title) ? submenu.title : nil)
                    submenu.items.forEach { visit($0, outer: next) }
                }
            }
            group.forEach { visit($0, outer: nil) }
        }
        return out
    }

    /// Invariants 3 (coherent submenus) and 5 (room is used).
    func coherenceAndRoom(_ proposal: Proposal) -> [String] {
        var out: [String] = []
        let table = categoryTable()
        let top = proposal.layout.groups.flatMap { $0 }
        var home: [String: String] = [:]
        var regularInSubmenu = false
        let untitled = Set(proposal.untitledCategories.map(\.name))
        for case let .submenu(submenu) in top {
            let ids = Submenu(title: "", items: submenu.items).commandIDs
            if ids.allSatisfy({ commands[$0]?.destructive == true && commands[$0]?.pinned != true }) { continue }
            regularInSubmenu = true
            var titles: [String] = []
            var names: [String] = []
            for id in ids {
                guard let category = table[id] else { continue }
                if !names.contains(category.name) { names.append(category.name) }
                if let title = category.title, !titles.contains(title) { titles.append(title) }
                // The destructive tail keeps to the end of the menu (its own submenu when it does
                // not fit), apart from its category's other commands.
                let destructive = commands[id]?.destructive == true && commands[id]?.pinned != true
                if !destructive, let other = home[category.name], other != submenu.title {
                    out.append("3: category \(category.name) split between submenus \(other) and \(submenu.title)")
                }
                if !destructive { home[category.name] = submenu.title }
            }
            if titles.isEmpty {
                for name in names where !untitled.contains(name) {
                    out.append("3: submenu \(submenu.title) of untitled \(name), not reported as untitled")
                }
            } else {
                let expected = titles.reduce(0) { $0 + $1.count } + 2 * (titles.count - 1)
                if submenu.title.count != expected || !titles.allSatisfy({ submenu.title.contains($0) }) {
                    out.append("3: submenu titled '\(submenu.title)', its categories' titles are \(titles)")
                }
            }
            let reported = proposal.submenus.first { $0.title == submenu.title }
            if reported == nil || Set(reported!.categories.map(\.name)) != Set(names) {
                out.append("3: submenu \(submenu.title) reported with \(reported?.categories.map(\.name) ?? []), holds \(names)")
            }
        }
        // 5. While a command waits in a submenu, the top level is full (pinned places aside).
        let pinnedAny = menu.layout.distinctCommands.contains { commands[$0]?.pinned == true }
        if regularInSubmenu, !pinnedAny, top.count != options.maxGroups * options.maxGroupSize {
            out.append("5: \(top.count) of \(options.maxGroups * options.maxGroupSize) top-level slots used")
        }
        return out
    }
}
