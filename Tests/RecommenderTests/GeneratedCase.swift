import Foundation
import Menus
import Ranking
import Recommender
import TestSupport

/// A random manifest menu, usage and options for property tests.
///
/// Two kinds: small menus (1-14 commands, odd shapes: nested submenus, repeats, generic titles,
/// thin or skewed counts) and, one case in three, large real-like menus (60-150 commands in 10-15
/// categories: current groups, titled or not, current submenus, manifest categories with or
/// without `categories` titles) with heavy users (one person making most of a command's picks, so
/// selections far exceed user-days) and a menu audience from a few people to thousands.
///
/// Two more kinds are drawn from a stream of their own (so the other cases stay as they were): a
/// quarter of the large menus are flat, in 10-15 untitled groups with no submenu and no manifest
/// category; and two cases in five carry their use split by person bucket (`PeopleCounts`), as
/// ingestion stores it, and of those half have one command whose use is all one person's
/// (`dominant`: several times the selections and user-days of the most-used other command, in a
/// single bucket), which must not move it (people, not events, are the evidence).
struct GeneratedCase: CustomStringConvertible {
    var seed: UInt64
    var menu: ElementMenu
    var commands: [String: CommandInfo]
    var categories: [String: CategoryInfo]
    var usage: [String: UsageCount]
    var menuUsers: Int
    var options: Recommender.Options
    var large: Bool
    /// A large menu of untitled groups only.
    var flat = false
    /// The command whose use is all one person's (in one person bucket), if any.
    var dominant: String?

    /// The stream that draws the kinds added later (flat menus, splits by person), apart from the
    /// one that draws everything else.
    private static func kinds(_ seed: UInt64) -> SplitMix64 { SplitMix64(seed: seed ^ 0x7065_6f70_6c65_2721) }

    /// Raw selections per command (for messages and the selections-only API).
    var selections: [String: Int] { usage.mapValues { Int($0.selections) } }

    init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed)
        large = rng.chance(1.0 / 3.0)
        categories = [:]
        var kinds = Self.kinds(seed)
        if large, kinds.chance(0.25) {
            flat = true
            (menu, commands) = Self.flatMenu(&rng)
        } else if large {
            (menu, commands, categories) = Self.largeMenu(&rng)
        } else {
            (menu, commands) = Self.smallMenu(&rng)
        }
        let pool = commands.keys.sorted()

        // Usage: thin or plentiful, flat or heavily skewed, with zeros, heavy users and commands only
        // in telemetry.
        menuUsers = [0, 5, 40, 300, 5000][rng.int(0...4)]
        if large, menuUsers == 0 { menuUsers = 57 }
        var usage: [String: UsageCount] = [:]
        let scale = large ? [400, 5000, 100_000][rng.int(0...2)] : [3, 40, 400, 5000, 60000][rng.int(0...4)]
        let skew = [0.0, 0.7, 1.5, 3.0][rng.int(0...3)]
        let days = 28.0
        for (rank, id) in pool.shuffledDeterministically(&rng).enumerated() {
            if rng.chance(0.15) { continue }
            if rng.chance(0.1) {
                usage[id] = UsageCount(selections: 0, users: 0, userDays: 0)
                continue
            }
            let mean = Double(scale) / pow(Double(rank + 1), skew)
            let selections = Double(Int(mean * (0.5 + rng.unit())))
            guard selections > 0 else {
                usage[id] = UsageCount(selections: 0, users: 0, userDays: 0)
                continue
            }
            let audience = max(1, menuUsers)
            var users = max(1, min(audience, Int(Double(audience) * rng.unit() * min(1, selections / 50))))
            users = min(users, Int(selections))
            var userDays: Double
            if rng.chance(large ? 0.25 : 0.1) {
                // A heavy user: one person makes most of the picks, on at most every day.
                userDays = min(selections, days + Double(users - 1) * (1 + rng.unit() * 3))
            } else {
                userDays = min(selections, Double(users) * min(days, max(1, selections / Double(users))))
            }
            userDays = max(Double(users) > 0 ? 1 : 0, userDays.rounded())
            usage[id] = UsageCount(selections: selections, users: users, userDays: userDays)
        }
        if rng.chance(0.2) {
            let picks = rng.int(0...200)
            usage["telemetry_only"] = UsageCount(selections: picks, users: min(picks, 3))
        }
        if kinds.chance(0.4) {
            usage = Self.splitByPerson(usage, audience: max(1, menuUsers), &kinds)
            if kinds.chance(0.5) {
                let listed = Set(menu.layout.distinctCommands)
                let split = usage
                let used = split.keys.sorted().filter { listed.contains($0) && (split[$0]?.selections ?? 0) > 0 }
                if !used.isEmpty {
                    let id = used[kinds.int(0...(used.count - 1))]
                    let top = usage.filter { $0.key != id }.values
                    let selections = 3 * max(10, top.map(\.selections).max() ?? 0)
                    let userDays = 3 * max(10, top.map(\.userDays).max() ?? 0)
                    var split = PeopleCounts.zero
                    let bucket = PersonBucket.of(user: "dominant")
                    split.selections[bucket] = selections
                    split.userDays[bucket] = userDays
                    usage[id] = UsageCount(selections: selections, users: 1, userDays: userDays, people: split)
                    dominant = id
                }
            }
        }
        self.usage = usage
        options = Recommender.Options(maxGroups: rng.int(1...4), maxGroupSize: rng.int(2...4),
                                      pruneShare: rng.chance(0.7) ? 0.01 : 0.05,
                                      pruneReach: rng.chance(0.7) ? 0.05 : 0.2,
                                      grouping: rng.chance(0.5) ? .semantic : .usage,
                                      weight: rng.chance(0.75) ? .userDays : .selections)
        if large, rng.chance(0.7) { options.maxGroups = 3; options.maxGroupSize = 3 }
    }

    /// `usage` with each command's selections and user-days shared out among its people (random
    /// weights), each person in the bucket ingestion gives them (`PersonBucket.of(user:)`).
    private static func splitByPerson(_ usage: [String: UsageCount], audience: Int, _ rng: inout SplitMix64)
        -> [String: UsageCount]
    {
        var out: [String: UsageCount] = [:]
        for id in usage.keys.sorted() {
            let count = usage[id]!
            guard count.selections > 0 else {
                out[id] = count
                continue
            }
            let people = max(1, min(count.users, audience))
            let weights = (0..<people).map { _ in 0.1 + rng.unit() }
            let total = weights.reduce(0, +)
            var split = PeopleCounts.zero
            for (index, weight) in weights.enumerated() {
                let bucket = PersonBucket.of(user: "p\(rng.int(0...(audience - 1)))-\(index)")
                split.selections[bucket] += count.selections * weight / total
                split.userDays[bucket] += count.userDays * weight / total
            }
            out[id] = UsageCount(selections: count.selections, users: count.users, userDays: count.userDays, people: split)
        }
        return out
    }

    /// 60-150 commands in 10-15 untitled groups: no submenu, no manifest category, no group title,
    /// so no category can become a submenu with a title.
    private static func flatMenu(_ rng: inout SplitMix64) -> (ElementMenu, [String: CommandInfo]) {
        let total = rng.int(60...150)
        let groupCount = rng.int(10...15)
        var sizes = [Int](repeating: 1, count: groupCount)
        for _ in 0..<(total - groupCount) { sizes[rng.int(0...(groupCount - 1))] += 1 }
        var commands: [String: CommandInfo] = [:]
        var groups: [[MenuItem]] = []
        var next = 0
        for size in sizes {
            let ids = (0..<size).map { "f\(next + $0)" }
            next += size
            for id in ids {
                commands[id] = CommandInfo(title: "Command \(id)", destructive: rng.chance(0.03), pinned: rng.chance(0.01),
                                           keep: rng.chance(0.05))
            }
            groups.append(ids.map(MenuItem.command))
        }
        return (ElementMenu(layout: Layout(groups: groups), groupTitles: groups.map { _ in nil }), commands)
    }

    private static func smallMenu(_ rng: inout SplitMix64) -> (ElementMenu, [String: CommandInfo]) {
        let pool = (0..<rng.int(1...14)).map { "c\($0)" }
        var commands: [String: CommandInfo] = [:]
        let names = ["edit", "share", "view", "More"]
        for id in pool {
            commands[id] = CommandInfo(
                title: rng.chance(0.05) ? "" : "Title \(id)",
                destructive: rng.chance(0.12), pinned: rng.chance(0.07), keep: rng.chance(0.12),
                category: rng.chance(0.25) ? names[rng.int(0...3)] : nil)
        }
        var used: [String] = []
        func pick() -> String {
            if !used.isEmpty, rng.chance(0.1) { return used[rng.int(0...(used.count - 1))] }
            let unused = pool.filter { !used.contains($0) }
            let id = unused.isEmpty ? pool[rng.int(0...(pool.count - 1))] : unused[rng.int(0...(unused.count - 1))]
            used.append(id)
            return id
        }
        func item(depth: Int) -> MenuItem {
            if depth < 2, rng.chance(depth == 0 ? 0.15 : 0.1) {
                let items = (0..<rng.int(1...4)).map { _ in item(depth: depth + 1) }
                return .submenu(Submenu(title: rng.chance(0.1) ? "More" : "Sub \(rng.int(0...99))", items: items))
            }
            return .command(pick())
        }
        let groups = (0..<rng.int(1...6)).map { _ in (0..<rng.int(1...5)).map { _ in item(depth: 0) } }
        let titles: [String?] = groups.indices.map { rng.chance(0.2) ? "Group \($0)" : nil }
        return (ElementMenu(layout: Layout(groups: groups), groupTitles: titles), commands)
    }

    /// 60-150 commands in 10-15 categories: each category is a current group (titled or not), a
    /// current submenu inside a group (sometimes nested one level more), or a manifest category.
    private static func largeMenu(_ rng: inout SplitMix64)
        -> (ElementMenu, [String: CommandInfo], [String: CategoryInfo])
    {
        let total = rng.int(60...150)
        let categoryCount = rng.int(10...15)
        var sizes = [Int](repeating: 1, count: categoryCount)
        for _ in 0..<(total - categoryCount) { sizes[rng.int(0...(categoryCount - 1))] += 1 }
        var commands: [String: CommandInfo] = [:]
        var categories: [String: CategoryInfo] = [:]
        var groups: [[MenuItem]] = []
        var titles: [String?] = []
        var next = 0
        for (index, size) in sizes.enumerated() {
            let ids = (0..<size).map { "k\(next + $0)" }
            next += size
            let named = rng.chance(0.2) ? "cat\(index)" : nil
            if let named, rng.chance(0.6) { categories[named] = CategoryInfo(title: "Category \(index)") }
            for id in ids {
                commands[id] = CommandInfo(title: "Command \(id)", destructive: rng.chance(0.03),
                                           pinned: rng.chance(0.01), keep: rng.chance(0.05), category: named)
            }
            let items = ids.map { MenuItem.command($0) }
            if named == nil, rng.chance(0.45), !groups.isEmpty, size >= 2 {
                // A submenu in the previous group, sometimes with a nested one.
                var inner = items
                if size >= 5, rng.chance(0.3) {
                    let cut = size / 2
                    inner = Array(items.prefix(cut)) + [.submenu(Submenu(title: "Nested \(index)", items: Array(items.dropFirst(cut))))]
                }
                groups[groups.count - 1].append(.submenu(Submenu(title: rng.chance(0.05) ? "More" : "Menu \(index)",
                                                                  items: inner)))
            } else {
                groups.append(items)
                titles.append(rng.chance(0.3) ? "Group \(index)" : nil)
            }
        }
        return (ElementMenu(layout: Layout(groups: groups), groupTitles: titles), commands, categories)
    }

    var description: String {
        let attributes = commands.keys.sorted().map { id -> String in
            let info = commands[id]!
            let flags = [info.destructive ? "D" : "", info.pinned ? "P" : "", info.keep ? "K" : "",
                         info.category.map { "@" + $0 } ?? ""].joined()
            let use = usage[id].map { "\(Int($0.selections))/\(Int($0.userDays))/\($0.users)" } ?? "-"
            return "\(id)=\(use)\(flags)"
        }
        return "seed \(seed)\(flat ? " flat" : "")\(dominant.map { " dominant \($0)" } ?? "") G\(options.maxGroups) S\(options.maxGroupSize) \(options.grouping) \(options.weight) "
            + "share<\(options.pruneShare) reach<\(options.pruneReach) people \(menuUsers): "
            + "\(menu.layout.compact) titles \(menu.groupTitles) categories \(categories.keys.sorted()) :: "
            + attributes.joined(separator: " ")
            + (usage["telemetry_only"].map { " telemetry_only=\(Int($0.selections))" } ?? "")
    }
}

extension Array {
    func shuffledDeterministically(_ rng: inout SplitMix64) -> [Element] {
        var out = self
        if out.count < 2 { return out }
        for index in stride(from: out.count - 1, through: 1, by: -1) {
            out.swapAt(index, rng.int(0...index))
        }
        return out
    }
}
