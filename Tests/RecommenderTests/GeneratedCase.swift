import Foundation
import Menus
import Recommender
import TestSupport

/// A random manifest menu, usage and options for property tests.
///
/// Two kinds: small menus (1-14 commands, odd shapes: nested submenus, repeats, generic titles,
/// thin or skewed counts) and, one case in three, large real-like menus (60-150 commands in 10-15
/// categories: current groups, titled or not, current submenus, manifest categories with or
/// without `categories` titles) with heavy users (one person making most of a command's picks, so
/// selections far exceed user-days) and a menu audience from a few people to thousands.
struct GeneratedCase: CustomStringConvertible {
    var seed: UInt64
    var menu: ElementMenu
    var commands: [String: CommandInfo]
    var categories: [String: CategoryInfo]
    var usage: [String: UsageCount]
    var menuUsers: Int
    var options: Recommender.Options
    var large: Bool

    /// Raw selections per command (for messages and the selections-only API).
    var selections: [String: Int] { usage.mapValues { Int($0.selections) } }

    init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed)
        large = rng.chance(1.0 / 3.0)
        categories = [:]
        if large {
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
        self.usage = usage
        options = Recommender.Options(maxGroups: rng.int(1...4), maxGroupSize: rng.int(2...4),
                                      pruneShare: rng.chance(0.7) ? 0.01 : 0.05,
                                      pruneReach: rng.chance(0.7) ? 0.05 : 0.2,
                                      grouping: rng.chance(0.5) ? .semantic : .usage,
                                      weight: rng.chance(0.75) ? .userDays : .selections)
        if large, rng.chance(0.7) { options.maxGroups = 3; options.maxGroupSize = 3 }
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
        return "seed \(seed) G\(options.maxGroups) S\(options.maxGroupSize) \(options.grouping) \(options.weight) "
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
