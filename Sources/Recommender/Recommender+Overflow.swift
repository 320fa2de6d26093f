import Menus

extension Recommender {
    /// A unit of the overflow: the commands of one category left out of the top level, or the
    /// merged rest of several.
    private struct OverflowUnit {
        /// Ordered by use, descending by count then reading order.
        var entries: [MenuEntry]
        var categories: [MenuEntry.Category]
        /// The category's title (nil for an untitled category or a merged unit).
        var title: String?
        /// Sum of the commands' counts: the category's use in the overflow.
        var weight: Double
        var firstRead: Int
    }

    /// What `arrangeFull` places: the top-level commands and the overflow items.
    private struct OverflowPlan {
        var top: [MenuEntry]
        /// Categories with an item of their own (a submenu, or a lone command when it is the
        /// most-used command of the overflow), most-used first.
        var own: [OverflowUnit]
        /// The merged rest (empty when nothing merges).
        var merged: [MenuEntry]
        /// Top-level items the plan uses.
        var itemCount: Int { top.count + own.count + (merged.isEmpty ? 0 : 1) }
        /// Categories merged only for want of room, each used no more than the least-used top-level
        /// command (so that a slot was better spent on a command).
        var justified: Bool
        /// No category merged for want of room.
        var unforced: Bool
    }

    /// The arrangement when the commands do not all fit (DESIGN.md, "Grouping"): the top level is
    /// full (invariant 5), its commands are the most-used ones, and the rest stay reachable in
    /// submenus that each hold the rest of one category, titled after it (invariant 3).
    ///
    /// For every count K of top-level commands, from the most that leaves a slot for a submenu down
    /// to none, the overflow (the commands after the K most-used, by count) is split by category,
    /// the categories ordered by their use in the overflow. A category gets an item of its own when
    /// it has a title and two or more commands left (a submenu titled after it), or when its one
    /// command left is the most-used of the overflow (it stands alone at the top level; a submenu
    /// of one command is never made). Every other category (untitled, or a single command less
    /// used than another in a submenu) goes to one merged submenu titled after the categories it
    /// holds. While the items outnumber the free slots, the least-used category with an item of
    /// its own merges too. The first K (from the top) whose items fill the top level exactly and
    /// whose merges are justified (each category merged for want of room is used no more than the
    /// least-used top-level command) wins; failing that, the first K that fills the top level;
    /// failing that, the K that uses the most slots.
    ///
    /// Laying out: semantic grouping lays each category's top-level commands followed by its item,
    /// categories by use, the merged submenu last, consecutively into the groups' free slots; each
    /// group is ordered by use (commands, then submenus) and the groups by their most-used command.
    /// When that order leaves a group with more items than its slots (pinned commands and the tail
    /// take fixed places), it lays out as usage grouping does: the top-level commands by use, then
    /// the lone commands, the category submenus by use and the merged submenu, cut consecutively.
    func arrangeFull(regular: [MenuEntry], tail: [MenuEntry], pinned: [MenuEntry], tailRoom: Int,
                     gate: UsageGate) -> [[MenuItem]]?
    {
        guard !regular.isEmpty else { return nil }
        let groupCount = options.maxGroups
        let size = options.maxGroupSize
        let tailSlots = min(tail.count, tailRoom)
        var pins = [[MenuEntry]](repeating: [], count: groupCount)
        for entry in pinned { pins[min(entry.group, groupCount - 1)].append(entry) }
        let capacity = (0..<groupCount).map { size - pins[$0].count - ($0 == groupCount - 1 ? tailSlots : 0) }
        guard capacity.allSatisfy({ $0 >= 0 }) else { return nil }
        let slots = capacity.reduce(0, +)
        guard slots >= 1 else { return nil }

        let byUse = regular.sorted { $0.count != $1.count ? $0.count > $1.count : $0.origin < $1.origin }
        let all = regular + tail + pinned
        let weights = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.count) })
        let expertise = Dictionary(uniqueKeysWithValues: all.map {
            ($0.id, MenuTimeModel.expertise(selections: $0.selections, users: $0.users))
        })
        let ids = all.map(\.id)
        let model = MenuTimeModel()
        var best: (layout: [[MenuItem]], cost: Double)?
        var widest: OverflowPlan?
        for k in stride(from: min(slots - 1, byUse.count - 1), through: 0, by: -1) {
            let plan = overflowPlan(byUse: byUse, top: k, free: slots - k)
            if widest == nil || plan.itemCount > widest!.itemCount { widest = plan }
            guard plan.itemCount == slots else { continue }
            // The most top-level commands that leave every category its own item.
            if plan.unforced {
                return lay(plan, tail: tail, tailSlots: tailSlots, pins: pins, capacity: capacity, gate: gate)
            }
            let layout = lay(plan, tail: tail, tailSlots: tailSlots, pins: pins, capacity: capacity, gate: gate)
            let cost = model.expectedTime(of: Layout(groups: layout), commands: ids, weight: { weights[$0]! }, total: 1,
                                          expertise: { expertise[$0]! }, fallback: 0)
            if best == nil || cost < best!.cost { best = (layout, cost) }
        }
        if let best { return best.layout }
        guard let widest else { return nil }
        return lay(widest, tail: tail, tailSlots: tailSlots, pins: pins, capacity: capacity, gate: gate)
    }

    /// The plan laid out in rows, with the destructive tail and the pinned commands in place.
    private func lay(_ plan: OverflowPlan, tail: [MenuEntry], tailSlots: Int, pins: [[MenuEntry]], capacity: [Int],
                     gate: UsageGate) -> [[MenuItem]]
    {
        let groupCount = options.maxGroups
        let rows = rows(plan, capacity: capacity, gate: gate)
        var out: [[MenuItem]] = []
        for (index, row) in rows.enumerated() {
            var items = row
            var limit = items.count
            if index == groupCount - 1 { items += Self.tailItems(tail, slots: tailSlots, gate: gate) }
            let groupPins = pins[index].sorted { $0.slot != $1.slot ? $0.slot < $1.slot : $0.read > $1.read }
            for pin in groupPins {
                items.insert(.command(pin.id), at: min(pin.slot, limit))
                limit += 1
            }
            if !items.isEmpty { out.append(items) }
        }
        return out
    }

    /// The plan with the `top` most-used commands at the top level and `free` slots for the rest.
    private func overflowPlan(byUse: [MenuEntry], top count: Int, free: Int) -> OverflowPlan {
        let top = Array(byUse.prefix(count))
        let rest = byUse.dropFirst(count)
        var units: [MenuEntry.Category: OverflowUnit] = [:]
        var order: [MenuEntry.Category] = []
        for entry in rest {
            if units[entry.category] == nil {
                order.append(entry.category)
                units[entry.category] = OverflowUnit(entries: [], categories: [entry.category], title: entry.categoryTitle,
                                                     weight: 0, firstRead: entry.origin)
            }
            units[entry.category]!.entries.append(entry)
            units[entry.category]!.weight += entry.count
            units[entry.category]!.firstRead = min(units[entry.category]!.firstRead, entry.origin)
        }
        let ordered = order.map { units[$0]! }.sorted {
            $0.weight != $1.weight ? $0.weight > $1.weight : $0.firstRead < $1.firstRead
        }
        let highest = rest.first?.count ?? 0
        var own: [OverflowUnit] = []
        var pool: [OverflowUnit] = []
        for unit in ordered {
            if unit.entries.count == 1 ? unit.entries[0].count >= highest : unit.title != nil {
                own.append(unit)
            } else {
                pool.append(unit)
            }
        }
        var forced: [OverflowUnit] = []
        while !own.isEmpty, own.count + (pool.isEmpty ? 0 : 1) > free {
            let unit = own.removeLast()
            forced.append(unit)
            pool.append(unit)
        }
        // A merged submenu of one command would be that command at the top level, below a command
        // in a submenu: it takes the least-used category with an item of its own along.
        if pool.reduce(0, { $0 + $1.entries.count }) == 1, let partner = own.popLast() {
            pool.append(partner)
        }
        let least = top.last?.count ?? .infinity
        let merged = pool.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.firstRead < $1.firstRead }
            .flatMap(\.entries)
        return OverflowPlan(top: top, own: own, merged: merged,
                            justified: forced.allSatisfy { $0.weight <= least }, unforced: forced.isEmpty)
    }

    /// The plan's items as they read at the top level: a lone command, or a submenu.
    private func item(_ unit: OverflowUnit, gate: UsageGate) -> MenuItem {
        if unit.entries.count == 1 { return .command(unit.entries[0].id) }
        let ordered = gate.sorted(unit.entries.sorted { $0.origin < $1.origin }, by: \.count)
        return .submenu(Submenu(title: unit.title ?? SubmenuTitle.fallback(for: ordered),
                                items: ordered.map { .command($0.id) }))
    }

    /// The rows: the top-level commands (lone ones included) ordered by use, then the submenus by
    /// their most-used command (of equals, the one read first), cut consecutively by capacity.
    private func rows(_ plan: OverflowPlan, capacity: [Int], gate: UsageGate) -> [[MenuItem]] {
        let commands = plan.top + plan.own.filter { $0.entries.count == 1 }.flatMap(\.entries)
        var sequence = gate.sorted(commands.sorted { $0.origin < $1.origin }, by: \.count).map { MenuItem.command($0.id) }
        var menus: [(item: MenuItem, most: Double, origin: Int)] = plan.own.filter { $0.entries.count > 1 }.map { unit in
            (item(unit, gate: gate), unit.entries.map(\.count).max()!, unit.entries.map(\.origin).min()!)
        }
        if let merged = Self.item(holding: plan.merged, gate: gate) {
            menus.append((merged, plan.merged.map(\.count).max()!, plan.merged.map(\.origin).min()!))
        }
        sequence += menus.sorted { $0.most != $1.most ? $0.most > $1.most : $0.origin < $1.origin }.map(\.item)
        var rows: [[MenuItem]] = []
        var start = 0
        for room in capacity {
            let end = min(sequence.count, start + room)
            rows.append(Array(sequence[start..<end]))
            start = end
        }
        return rows
    }
}
