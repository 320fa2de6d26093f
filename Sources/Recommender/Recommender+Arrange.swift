import Menus

extension Recommender {
    /// One group of a proposal under construction.
    private struct GroupPlan {
        /// Regular commands, ordered by use.
        var regular: [MenuEntry]
        /// Pinned commands, each inserted at its slot.
        var pinned: [MenuEntry]

        var count: Int { regular.count + pinned.count }
        /// Its most-used regular command, what groups are ordered by (pinned commands keep their
        /// place in whatever group their category lands in, and weigh nothing in its order).
        var most: Double { regular.map { $0.count }.max() ?? 0 }
        /// The evidence of that command, what the gate compares groups by.
        var mostEvidence: UsageGate.Evidence {
            regular.max { $0.count != $1.count ? $0.count < $1.count : $0.read > $1.read }?.evidence ?? .zero
        }
    }

    /// Searches for the arrangement: first with every command at the top level (the destructive
    /// tail at the end), else with the top level full and the rest in category submenus
    /// (`arrangeFull`, where destructive commands are placed by use like the others), else with
    /// ever less room for the destructive tail at the top level. When nothing fits,
    /// the least-used pinned command (of equals, the greatest id: a choice that does not depend on
    /// the layout, so a proposal made this way is made the same way again from itself) loses its pin and the search
    /// starts again. With no pinned command left and a tail of one slot, `arrangeFull` always finds
    /// an arrangement (a group holds at least two items), so the search ends.
    /// Returns the layout and the pinned commands that lost their pin.
    func arrange(regular: [MenuEntry], tail: [MenuEntry], pinned: [MenuEntry],
                 gate: UsageGate) -> (layout: Layout, unpinned: [String])
    {
        var unpinnedIDs: [String] = []
        var regular = regular
        var tail = tail
        var pinned = pinned
        let size = options.maxGroupSize
        while true {
            let tailRooms = tail.isEmpty ? [0] : Array(stride(from: min(tail.count, size), through: 1, by: -1))
            for (attempt, tailRoom) in tailRooms.enumerated() {
                if let groups = arrange(regular: regular, tail: tail, pinned: pinned, tailRoom: tailRoom, gate: gate)
                {
                    return (Layout(groups: groups), unpinnedIDs)
                }
                // When not everything fits, destructive commands compete for the top level like
                // the others and otherwise stay with their category (`arrangeFull`); a destructive
                // submenu of its own is the last resort, when pinned places leave no other way.
                if attempt == 0, let groups = arrangeFull(regular: regular + tail, pinned: pinned, gate: gate) {
                    return (Layout(groups: groups), unpinnedIDs)
                }
            }
            guard let weakest = pinned.indices.min(by: {
                pinned[$0].count != pinned[$1].count ? pinned[$0].count < pinned[$1].count
                    : pinned[$0].id > pinned[$1].id
            }) else {
                preconditionFailure("a layout with no pinned command always fits")
            }
            let unpinned = pinned.remove(at: weakest)
            unpinnedIDs.append(unpinned.id)
            if unpinned.info.destructive {
                tail = (tail + [unpinned]).sorted { $0.read < $1.read }
            } else {
                regular = (regular + [unpinned]).sorted { $0.read < $1.read }
            }
        }
    }

    /// One arrangement with every regular command at the top level and `tailRoom` slots for the
    /// destructive tail; nil when it does not fit the shape.
    private func arrange(regular: [MenuEntry], tail: [MenuEntry], pinned: [MenuEntry], tailRoom: Int,
                         gate: UsageGate) -> [[MenuItem]]?
    {
        let size = options.maxGroupSize
        let tailSlots = min(tail.count, tailRoom)

        var groups: [GroupPlan]
        switch options.grouping {
        case .semantic:
            guard let planned = semanticGroups(regular, pinned: pinned, gate: gate) else { return nil }
            groups = planned
        case .usage:
            guard let planned = usageGroups(regular, pinned: pinned, tailSlots: tailSlots, gate: gate) else { return nil }
            groups = planned
        }
        if groups.isEmpty {
            if tail.isEmpty { return [] }
            groups = [GroupPlan(regular: [], pinned: [])]
        }
        // The tail goes to the end of the last group; when it has no room there and a group is
        // left, it opens a group of its own.
        if groups.contains(where: { $0.count > size }) { return nil }
        var last = groups.count - 1
        if groups[last].count + tailSlots > size, groups.count < options.maxGroups, groups[last].count > 0 {
            groups.append(GroupPlan(regular: [], pinned: []))
            last += 1
        }
        guard groups[last].count + tailSlots <= size else { return nil }

        var out: [[MenuItem]] = []
        for (index, group) in groups.enumerated() {
            var items = group.regular.map { MenuItem.command($0.id) }
            var limit = items.count
            if index == last { items += Self.tailItems(tail, slots: tailSlots, gate: gate) }
            // Lower slots first; for equal slots the later-listed first, so the earlier-listed ends above.
            let pins = group.pinned.sorted { $0.slot != $1.slot ? $0.slot < $1.slot : $0.read > $1.read }
            for pin in pins {
                items.insert(.command(pin.id), at: min(pin.slot, limit))
                limit += 1
            }
            if !items.isEmpty { out.append(items) }
        }
        return out
    }

    /// Categories ordered by use; a category larger than a group is cut into groups (its pinned
    /// commands in the first); the groups are ordered by their most-used command; when there are more groups
    /// than `maxGroups`, the least-used ones merge into the last group, and the groups are ordered
    /// again. Nil when one category pins more commands than a group holds.
    private func semanticGroups(_ kept: [MenuEntry], pinned: [MenuEntry], gate: UsageGate) -> [GroupPlan]? {
        let size = options.maxGroupSize
        var order: [MenuEntry.Category] = []
        var members: [MenuEntry.Category: [MenuEntry]] = [:]
        var pins: [MenuEntry.Category: [MenuEntry]] = [:]
        for entry in (kept + pinned).sorted(by: { $0.read < $1.read }) {
            if members[entry.category] == nil, pins[entry.category] == nil { order.append(entry.category) }
            if pinned.contains(where: { $0.id == entry.id }) {
                pins[entry.category, default: []].append(entry)
            } else {
                members[entry.category, default: []].append(entry)
            }
        }
        var categories: [[GroupPlan]] = []
        for category in order {
            let pinnedHere = pins[category] ?? []
            if pinnedHere.count > size { return nil }
            var rest = gate.sorted((members[category] ?? []).sorted { $0.origin < $1.origin }, by: { $0.evidence })[...]
            var chunks = [GroupPlan(regular: Array(rest.prefix(size - pinnedHere.count)), pinned: pinnedHere)]
            rest = rest.dropFirst(size - pinnedHere.count)
            while !rest.isEmpty {
                chunks.append(GroupPlan(regular: Array(rest.prefix(size)), pinned: []))
                rest = rest.dropFirst(size)
            }
            categories.append(chunks)
        }
        // Groups ordered by their most-used command, from the categories' order of first listing.
        var groups = gate.sorted(categories.flatMap { $0 }, by: { $0.mostEvidence })
        let limit = options.maxGroups
        if groups.count > limit {
            let tail = groups[(limit - 1)...]
            let merged = GroupPlan(
                regular: gate.sorted(tail.flatMap { $0.regular }.sorted { $0.origin < $1.origin }, by: { $0.evidence }),
                pinned: tail.flatMap { $0.pinned })
            groups = gate.sorted(Array(groups.prefix(limit - 1)) + [merged], by: { $0.mostEvidence })
        }
        return groups
    }

    /// The use-ordered list cut into the fewest consecutive groups that hold it next to the pinned
    /// commands (each in its current group, the last when there are fewer) and the tail; nil when
    /// even `maxGroups` groups cannot.
    private func usageGroups(_ kept: [MenuEntry], pinned: [MenuEntry], tailSlots: Int, gate: UsageGate) -> [GroupPlan]?
    {
        if kept.isEmpty, pinned.isEmpty { return [] }
        let ordered = gate.sorted(kept.sorted { $0.origin < $1.origin }, by: { $0.evidence })
        let size = options.maxGroupSize
        for count in 1...options.maxGroups {
            var pins = [[MenuEntry]](repeating: [], count: count)
            for entry in pinned { pins[min(entry.group, count - 1)].append(entry) }
            var capacity = pins.map { size - $0.count }
            capacity[count - 1] -= tailSlots
            guard capacity.allSatisfy({ $0 >= 0 }), capacity.reduce(0, +) >= ordered.count else { continue }
            var groups: [GroupPlan] = []
            var start = 0
            for (index, room) in capacity.enumerated() {
                let end = min(ordered.count, start + room)
                groups.append(GroupPlan(regular: Array(ordered[start..<end]), pinned: pins[index]))
                start = end
            }
            return groups
        }
        return nil
    }

    /// Commands as one item: nothing, the lone command, or a submenu ordered by use (destructive
    /// commands last), titled after their categories in their reading order (`SubmenuTitle`).
    static func item(holding entries: [MenuEntry], gate: UsageGate) -> MenuItem? {
        if entries.isEmpty { return nil }
        if entries.count == 1 { return .command(entries[0].id) }
        let ordered = Self.byUseDestructiveLast(entries, gate: gate)
        var seen: Set<MenuEntry.Category> = []
        let inReadingOrder = entries.sorted { $0.origin < $1.origin }.compactMap { entry -> String?? in
            seen.insert(entry.category).inserted ? .some(entry.categoryTitle) : nil
        }
        let title = SubmenuTitle.title(categories: inReadingOrder) ?? SubmenuTitle.fallback(for: ordered)
        return .submenu(Submenu(title: title, items: ordered.map { .command($0.id) }))
    }

    /// Commands ordered by use (the stability-gated sort from their order of origin), destructive
    /// ones last: the order inside a submenu.
    static func byUseDestructiveLast(_ entries: [MenuEntry], gate: UsageGate) -> [MenuEntry] {
        let ordered = gate.sorted(entries.sorted { $0.origin < $1.origin }, by: { $0.evidence })
        return ordered.filter { !$0.info.destructive || $0.info.pinned } + ordered.filter { $0.info.destructive && !$0.info.pinned }
    }

    /// The destructive commands ordered by use in at most `slots` items, the last a submenu when
    /// they do not all fit.
    static func tailItems(_ tail: [MenuEntry], slots: Int, gate: UsageGate) -> [MenuItem] {
        let ordered = gate.sorted(tail.sorted { $0.origin < $1.origin }, by: { $0.evidence })
        if ordered.count <= slots { return ordered.map { .command($0.id) } }
        let plain = ordered.prefix(slots - 1).map { MenuItem.command($0.id) }
        return plain + [item(holding: Array(ordered.dropFirst(slots - 1)), gate: gate)!]
    }
}
