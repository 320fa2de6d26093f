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
        /// The sum of the commands' evidence, what the gate orders categories by.
        var evidence: UsageGate.Evidence = .zero
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
        /// The commands at the top level: the top ones and the lone commands of `own`.
        var topLevelCommands: [MenuEntry] { top + own.filter { $0.entries.count == 1 }.flatMap { $0.entries } }
        /// Submenus of `own` holding destructive commands only: like those commands, they end the menu.
        var tailUnits: [OverflowUnit] { own.filter { $0.entries.count > 1 && $0.entries.allSatisfy { $0.isTail } } }
        /// The merged submenu holds destructive commands only: it ends the menu too.
        var mergedIsTail: Bool { !merged.isEmpty && merged.allSatisfy { $0.isTail } }
        /// Items that end the last group: destructive top-level commands, `tailUnits` and a
        /// destructive merged submenu.
        var tailCount: Int { topLevelCommands.filter { $0.isTail }.count + tailUnits.count + (mergedIsTail ? 1 : 0) }
        /// No category merged for want of room.
        var unforced: Bool
    }

    /// The arrangement when the commands do not all fit (DESIGN.md, "Grouping"): the top level is
    /// full (invariant 5), its commands are the most-used ones, and the rest stay reachable in
    /// submenus that each hold the rest of one category, titled after it (invariant 3).
    ///
    /// Destructive commands take part like the others: a much-used Delete stays at the top level
    /// (at the very end of it), a rarely used one stays with its category, at the end of its
    /// submenu.
    ///
    /// For every count K of top-level commands, from the most that leaves a slot for a submenu down
    /// to the slots less one group (at most one group's worth of submenus), the overflow (the
    /// commands after the K most-used, by count) is split by category, the categories ordered by
    /// their use in the overflow. A category gets an item of its own when it has a title and two or
    /// more commands left (a submenu titled after it), or when its one command left is the most-used
    /// of the overflow (it stands alone at the top level; a submenu of one command is never made).
    /// Every other category (untitled, or a single command less used than another in a submenu)
    /// goes to one merged submenu titled after the categories it holds; a merged submenu needs a
    /// titled category to be titled from the manifest, so it takes the least-used titled one along.
    /// While the items outnumber the free slots, the least-used category with an item of its own
    /// merges too. The largest K whose items fill the top level with no category merged for want
    /// of room wins; failing that, the smallest K of the range (the most room for categories).
    /// Choosing by these counts rather than by a cost model keeps the choice stable when the
    /// window's days are resampled (invariant 6's stability).
    ///
    /// Laying out: the top-level commands by use, then the submenus by their most-used command,
    /// cut consecutively into the groups' free slots; the destructive top-level commands end the
    /// last group.
    func arrangeFull(regular: [MenuEntry], pinned: [MenuEntry], gate: UsageGate) -> [[MenuItem]]? {
        guard !regular.isEmpty else { return nil }
        let groupCount = options.maxGroups
        let size = options.maxGroupSize
        var pins = [[MenuEntry]](repeating: [], count: groupCount)
        for entry in pinned { pins[min(entry.group, groupCount - 1)].append(entry) }
        let capacity = (0..<groupCount).map { size - pins[$0].count }
        guard capacity.allSatisfy({ $0 >= 0 }) else { return nil }
        let slots = capacity.reduce(0, +)
        guard slots >= 1 else { return nil }

        // By use, gated (invariant 6): which commands make the top level changes only on evidence,
        // not when two commands' counts trade places by chance.
        let byUse = gate.sorted(regular.sorted { $0.origin < $1.origin }, by: { $0.evidence })
        // At most one group's worth of slots goes to submenus: the top level keeps most of its room
        // for the most-used commands, and a menu with many categories merges the least-used ones
        // rather than becoming a menu of submenus.
        let fewestCommands = max(0, slots - size)
        var chosen: OverflowPlan?
        var widest: OverflowPlan?
        for k in stride(from: min(slots - 1, byUse.count - 1), through: 0, by: -1) {
            let (top, rest) = Self.topLevel(k, of: byUse, gate: gate)
            let plan = overflowPlan(top: top, rest: rest, free: slots - k, gate: gate)
            // Destructive commands at the top level end the last group: they must fit there.
            guard plan.tailCount <= capacity[groupCount - 1] else { continue }
            if widest == nil || plan.itemCount > widest!.itemCount { widest = plan }
            guard plan.itemCount == slots else { continue }
            if k >= fewestCommands {
                // The most top-level commands that leave every category its own item; failing
                // that, the most room for categories.
                chosen = plan
                if plan.unforced { break }
            } else {
                // No count in that range fills the top level (pinned places, few categories).
                if chosen == nil { chosen = plan }
                break
            }
        }
        guard let plan = chosen ?? widest else { return nil }
        return lay(plan, pins: pins, capacity: capacity, gate: gate)
    }

    /// The plan laid out in rows, with the pinned commands in place and the destructive top-level
    /// commands at the end of the last group.
    private func lay(_ plan: OverflowPlan, pins: [[MenuEntry]], capacity: [Int], gate: UsageGate) -> [[MenuItem]] {
        let groupCount = options.maxGroups
        let tail = gate.sorted(plan.topLevelCommands.filter { $0.isTail }.sorted { $0.origin < $1.origin }, by: { $0.evidence })
            .map { MenuItem.command($0.id) } + plan.tailUnits.map { item($0, gate: gate) }
            + (plan.mergedIsTail ? [Self.item(holding: plan.merged, gate: gate)].compactMap { $0 } : [])
        var room = capacity
        room[groupCount - 1] -= tail.count
        let rows = rows(plan, capacity: room, gate: gate)
        var out: [[MenuItem]] = []
        for (index, row) in rows.enumerated() {
            var items = row
            var limit = items.count
            if index == groupCount - 1 { items += tail }
            let groupPins = pins[index].sorted { $0.slot != $1.slot ? $0.slot < $1.slot : $0.read > $1.read }
            for pin in groupPins {
                items.insert(.command(pin.id), at: min(pin.slot, limit))
                limit += 1
            }
            if !items.isEmpty { out.append(items) }
        }
        return out
    }

    /// The `count` commands for the top level and the rest, both in the gated order given: the
    /// first `count`, then, while a command of the rest is significantly more used than a top-level
    /// one (which the gated order allows when significance is not transitive), the most-used such
    /// command trades places with the least-used top-level one it beats. So no command left out is
    /// significantly more used than one kept (invariant 4), and near ties keep the current order.
    static func topLevel(_ count: Int, of byUse: [MenuEntry], gate: UsageGate) -> (top: [MenuEntry], rest: [MenuEntry]) {
        var top = Array(byUse.prefix(count))
        var rest = Array(byUse.dropFirst(count))
        // Each trade raises the top level's total count, so this ends.
        while let low = top.indices.min(by: { top[$0].count != top[$1].count ? top[$0].count < top[$1].count : $0 > $1 }),
              let high = rest.indices.max(by: { rest[$0].count != rest[$1].count ? rest[$0].count < rest[$1].count : $0 > $1 }),
              gate.beats(rest[high].evidence, top[low].evidence)
        {
            (top[low], rest[high]) = (rest[high], top[low])
        }
        let rank = Dictionary(uniqueKeysWithValues: byUse.enumerated().map { ($1.id, $0) })
        return (top.sorted { rank[$0.id]! < rank[$1.id]! }, rest.sorted { rank[$0.id]! < rank[$1.id]! })
    }

    /// The plan with `top` at the top level and `free` slots for `rest` (both in gated order).
    private func overflowPlan(top: [MenuEntry], rest: [MenuEntry], free: Int, gate: UsageGate) -> OverflowPlan {
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
            units[entry.category]!.evidence = units[entry.category]!.evidence + entry.evidence
            units[entry.category]!.firstRead = min(units[entry.category]!.firstRead, entry.origin)
        }
        let ordered = gate.sorted(order.map { units[$0]! }.sorted { $0.firstRead < $1.firstRead }, by: { $0.evidence })
        // The lone command that may stand at the top level: the most used of the rest.
        let head = rest.indices.max { rest[$0].count != rest[$1].count ? rest[$0].count < rest[$1].count : $0 > $1 }
            .map { rest[$0].id }
        var own: [OverflowUnit] = []
        var pool: [OverflowUnit] = []
        for unit in ordered {
            if unit.entries.count == 1 ? unit.entries[0].id == head : unit.title != nil {
                own.append(unit)
            } else {
                pool.append(unit)
            }
        }
        var forced = false
        while !own.isEmpty, own.count + (pool.isEmpty ? 0 : 1) > free {
            let unit = own.removeLast()
            forced = true
            pool.append(unit)
        }
        // A merged submenu of one command would be that command at the top level, below a command
        // in a submenu, and a merged submenu of untitled categories only would have no title from
        // the manifest: it takes the least-used titled category with an item of its own along.
        if pool.reduce(0, { $0 + $1.entries.count }) == 1 || (!pool.isEmpty && pool.allSatisfy { $0.title == nil }),
           let index = own.lastIndex(where: { $0.title != nil }) ?? own.indices.last
        {
            pool.append(own.remove(at: index))
        }
        let merged = pool.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.firstRead < $1.firstRead }
            .flatMap { $0.entries }
        return OverflowPlan(top: top, own: own, merged: merged,
                            unforced: !forced)
    }

    /// The plan's items as they read at the top level: a lone command, or a submenu.
    private func item(_ unit: OverflowUnit, gate: UsageGate) -> MenuItem {
        if unit.entries.count == 1 { return .command(unit.entries[0].id) }
        let ordered = Self.byUseDestructiveLast(unit.entries, gate: gate)
        return .submenu(Submenu(title: unit.title ?? SubmenuTitle.fallback(for: ordered),
                                items: ordered.map { .command($0.id) }))
    }

    /// The rows: the top-level commands (lone ones included) ordered by use, then the submenus by
    /// their most-used command (of equals, the one read first), cut consecutively by capacity.
    private func rows(_ plan: OverflowPlan, capacity: [Int], gate: UsageGate) -> [[MenuItem]] {
        let commands = plan.topLevelCommands.filter { !$0.isTail }
        var sequence = gate.sorted(commands.sorted { $0.origin < $1.origin }, by: { $0.evidence }).map { MenuItem.command($0.id) }
        let tailUnits = Set(plan.tailUnits.flatMap { $0.entries.map { $0.id } })
        var menus: [(item: MenuItem, most: Double, origin: Int)] = plan.own.filter {
            $0.entries.count > 1 && !tailUnits.contains($0.entries[0].id)
        }.map { unit in
            (item(unit, gate: gate), unit.entries.map { $0.count }.max()!, unit.entries.map { $0.origin }.min()!)
        }
        if !plan.mergedIsTail, let merged = Self.item(holding: plan.merged, gate: gate) {
            menus.append((merged, plan.merged.map { $0.count }.max()!, plan.merged.map { $0.origin }.min()!))
        }
        sequence += menus.sorted { $0.most != $1.most ? $0.most > $1.most : $0.origin < $1.origin }.map { $0.item }
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
