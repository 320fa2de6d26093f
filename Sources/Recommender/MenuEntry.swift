import Menus

/// A command of the current layout as the recommender works with it.
struct MenuEntry: Sendable {
    /// Semantic group (DESIGN.md, "Grouping"): the command's manifest category, else its current
    /// submenu, else its current group.
    enum Category: Hashable, Sendable {
        /// `CommandInfo.category`.
        case named(String)
        /// A current submenu with a title that says what it holds (outermost, as proposals never
        /// nest); also the category of a group's top-level commands when that group holds exactly
        /// one such submenu and has no title of its own (the designer put them side by side).
        case submenu(String)
        /// The current group.
        case group(Int)
    }

    /// The fields, in one immutable object: the arrangement copies entries between many arrays,
    /// and a copy then costs one reference count instead of one for each string it holds.
    private final class Fields: Sendable {
        let id: String
        let count: Double
        let selections: Double
        let userDays: Double
        let users: Int
        let people: [Double]
        let info: CommandInfo
        let read: Int
        let origin: Int
        let group: Int
        let slot: Int
        let submenu: String?
        let category: Category
        let categoryTitle: String?

        init(id: String, count: Double, selections: Double, userDays: Double, users: Int, people: [Double],
             info: CommandInfo, read: Int, origin: Int, group: Int, slot: Int, submenu: String?, category: Category,
             categoryTitle: String?)
        {
            self.id = id
            self.people = people
            self.count = count
            self.selections = selections
            self.userDays = userDays
            self.users = users
            self.info = info
            self.read = read
            self.origin = origin
            self.group = group
            self.slot = slot
            self.submenu = submenu
            self.category = category
            self.categoryTitle = categoryTitle
        }
    }

    private let fields: Fields

    init(id: String, count: Double, selections: Double, userDays: Double, users: Int, people: [Double] = [],
         info: CommandInfo, read: Int, origin: Int, group: Int, slot: Int, submenu: String?, category: Category,
         categoryTitle: String?)
    {
        fields = Fields(id: id, count: count, selections: selections, userDays: userDays, users: users, people: people,
                        info: info, read: read, origin: origin, group: group, slot: slot, submenu: submenu,
                        category: category, categoryTitle: categoryTitle)
    }

    var id: String { fields.id }
    /// What ordering, the stability gate and "used at least as much as" compare (`Options.weight`).
    var count: Double { fields.count }
    var selections: Double { fields.selections }
    var userDays: Double { fields.userDays }
    var users: Int { fields.users }
    /// `count` split by person bucket (empty when unknown).
    var people: [Double] { fields.people }
    /// What the stability gate compares.
    var evidence: UsageGate.Evidence { UsageGate.Evidence(count: fields.count, people: fields.people) }
    var info: CommandInfo { fields.info }
    /// Index of the command's first listing in the reading order of the layout arranged from.
    var read: Int { fields.read }
    /// Index in the reading order of the layout the proposal is made for; the starting order of
    /// every sort by use, so that each reordering is judged against that layout (equal to `read`
    /// except while a proposal settles, see `Recommender.recommend`).
    var origin: Int { fields.origin }
    /// Group of the first listing.
    var group: Int { fields.group }
    /// Index, within that group, of the top-level item holding the first listing (the command
    /// itself or its outermost submenu).
    var slot: Int { fields.slot }
    /// Title of the innermost submenu holding the first listing, if any.
    var submenu: String? { fields.submenu }
    var category: Category { fields.category }
    /// The category's title from the manifest: `categories[name].title` (else the name itself), the
    /// submenu's title, or the group's title; nil when it has none (a group without a title).
    var categoryTitle: String? { fields.categoryTitle }

    /// A destructive command that is not pinned: it ends the menu or its submenu.
    var isTail: Bool { info.destructive && !info.pinned }

    /// The usage of every command, as the entries read it.
    struct Counts {
        var weight: UsageWeight
        var usage: [String: UsageCount]

        func count(_ id: String) -> Double { max(0, usage[id]?.weighted(weight) ?? 0) }
        /// `count`, `selections`, `userDays` and `users` of one command, from one lookup.
        func all(_ id: String) -> (count: Double, selections: Double, userDays: Double, users: Int, people: [Double]) {
            guard let usage = usage[id] else { return (0, 0, 0, 0, []) }
            return (max(0, usage.weighted(weight)), max(0, usage.selections), max(0, usage.userDays), max(0, usage.users),
                    usage.weightedPeople(weight))
        }
        func evidence(_ id: String) -> UsageGate.Evidence {
            guard let usage = usage[id] else { return .zero }
            return UsageGate.Evidence(count: max(0, usage.weighted(weight)), people: usage.weightedPeople(weight))
        }
        func selections(_ id: String) -> Double { max(0, usage[id]?.selections ?? 0) }
        func userDays(_ id: String) -> Double { max(0, usage[id]?.userDays ?? 0) }
        func users(_ id: String) -> Int { max(0, usage[id]?.users ?? 0) }
    }

    /// The distinct commands of a menu, flattened in reading order (first listing wins), with
    /// `origin` from `origins` when given.
    static func entries(of menu: ElementMenu, commands: [String: CommandInfo], categories: [String: CategoryInfo],
                        counts: Counts, origins: [String: Int]? = nil) -> [MenuEntry]
    {
        let layout = menu.layout
        var out: [MenuEntry] = []
        var seen = Set<String>()
        func visit(_ item: MenuItem, group: Int, slot: Int, outer: String?, submenu: String?) {
            switch item {
            case let .command(id):
                guard seen.insert(id).inserted else { return }
                let info = commands[id] ?? CommandInfo(title: id)
                let category: Category
                let title: String?
                if let name = info.category {
                    category = .named(name)
                    let candidate = categories[name]?.title ?? name
                    title = isGoodTitle(candidate) ? candidate : nil
                } else if let outer {
                    category = .submenu(outer)
                    title = outer
                } else if let groupTitle = menu.groupTitle(group), isGoodTitle(groupTitle) {
                    category = .group(group)
                    title = groupTitle
                } else {
                    category = .group(group)
                    title = nil
                }
                let use = counts.all(id)
                out.append(MenuEntry(id: id, count: use.count, selections: use.selections,
                                     userDays: use.userDays, users: use.users, people: use.people, info: info,
                                     read: out.count, origin: origins?[id] ?? out.count, group: group, slot: slot,
                                     submenu: submenu, category: category, categoryTitle: title))
            case let .submenu(inner):
                // The outermost submenu with a good title is the category (inner ones flatten into it).
                let outermost = outer ?? (isGoodTitle(inner.title) ? inner.title : nil)
                for child in inner.items {
                    visit(child, group: group, slot: slot, outer: outermost, submenu: inner.title)
                }
            }
        }
        for (group, items) in layout.groups.enumerated() {
            for (slot, item) in items.enumerated() { visit(item, group: group, slot: slot, outer: nil, submenu: nil) }
        }
        return out
    }

    /// A title that says what a submenu holds: not empty, not generic (HIG-3, the linter's list).
    static func isGoodTitle(_ title: String) -> Bool { !SubmenuTitle.isGeneric(title) }
}

extension MenuEntry.Category {
    /// How review output names the category.
    var name: String {
        switch self {
        case let .named(name): name
        case let .submenu(title): title
        case let .group(index): "group \(index + 1)"
        }
    }
}

extension MenuEntry {
    /// The entry with another category.
    func recategorized(_ category: Category, title: String?) -> MenuEntry {
        MenuEntry(id: id, count: count, selections: selections, userDays: userDays, users: users, people: people,
                  info: info, read: read,
                  origin: origin, group: group, slot: slot, submenu: submenu, category: category, categoryTitle: title)
    }
}
