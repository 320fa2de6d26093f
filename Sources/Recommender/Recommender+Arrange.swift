import Menus

extension Recommender {
    /// Searches for the arrangement: first with the destructive tail fully at the top level, then
    /// with ever less room for it; inside, with 0, 1, 2, ... overflow commands. When nothing fits,
    /// the last-listed pinned command loses its pin and the search starts again. With no pinned
    /// command left, a tail of one slot and every regular command in the overflow always fits
    /// (a group holds at least two items), so the search ends.
    func arrange(regular: [MenuEntry], tail: [MenuEntry], pinned: [MenuEntry], gate: UsageGate) -> Layout {
        var regular = regular
        var tail = tail
        var pinned = pinned
        let size = options.maxGroupSize
        while true {
            let tailRooms = tail.isEmpty ? [0] : Array(stride(from: min(tail.count, size), through: 1, by: -1))
            for tailRoom in tailRooms {
                for overflow in 0...regular.count {
                    if let groups = arrange(regular: regular, tail: tail, pinned: pinned, overflow: overflow,
                                            tailRoom: tailRoom, gate: gate)
                    {
                        return Layout(groups: groups)
                    }
                }
            }
            guard let unpinned = pinned.popLast() else {
                preconditionFailure("a layout with no pinned command always fits")
            }
            if unpinned.info.destructive {
                tail = (tail + [unpinned]).sorted { $0.read < $1.read }
            } else {
                regular = (regular + [unpinned]).sorted { $0.read < $1.read }
            }
        }
    }

    /// One arrangement with `overflow` regular commands out of the groups and `tailRoom` slots for
    /// the destructive tail; nil when it does not fit the shape.
    private func arrange(regular: [MenuEntry], tail: [MenuEntry], pinned: [MenuEntry], overflow: Int,
                         tailRoom: Int, gate: UsageGate) -> [[MenuItem]]?
    {
        let size = options.maxGroupSize
        let byUse = regular.sorted { $0.count != $1.count ? $0.count > $1.count : $0.read < $1.read }
        let spilled = Array(byUse.suffix(overflow))
        let spilledIDs = Set(spilled.map(\.id))
        let kept = regular.filter { !spilledIDs.contains($0.id) }
        let tailSlots = min(tail.count, tailRoom)

        var groups: [[MenuEntry]]
        switch options.grouping {
        case .semantic:
            groups = semanticGroups(kept, gate: gate)
        case .usage:
            guard let cut = usageGroups(kept, pinned: pinned, tailSlots: tailSlots, overflow: overflow, gate: gate)
            else { return nil }
            groups = cut
        }
        if groups.isEmpty {
            if overflow == 0, tail.isEmpty, pinned.isEmpty { return [] }
            groups = [[]]
        }
        let last = groups.count - 1
        var pinnedIn = [[MenuEntry]](repeating: [], count: groups.count)
        for entry in pinned { pinnedIn[min(entry.group, last)].append(entry) }
        for index in 0..<last where groups[index].count + pinnedIn[index].count > size { return nil }
        let used = groups[last].count + pinnedIn[last].count + tailSlots
        var inline: [MenuEntry] = []
        var submenu: [MenuEntry] = []
        if overflow == 0 {
            guard used <= size else { return nil }
        } else {
            let room = size - used
            guard room >= 1 else { return nil }
            let plain = overflow <= room ? overflow : room - 1
            inline = Array(spilled.prefix(plain))
            submenu = Array(spilled.dropFirst(plain))
        }

        var out: [[MenuItem]] = []
        for index in groups.indices {
            var entries = groups[index]
            var tailItems: [MenuItem] = []
            if index == last {
                if !inline.isEmpty {
                    entries = gate.sorted((entries + inline).sorted { $0.read < $1.read }, by: \.count)
                }
                tailItems = Self.tailItems(tail, slots: tailSlots, gate: gate)
            }
            var items = entries.map { MenuItem.command($0.id) }
            if index == last, let item = Self.item(holding: submenu, gate: gate) { items.append(item) }
            var limit = items.count
            items += tailItems
            // Lower slots first; for equal slots the later-listed first, so the earlier-listed ends above.
            let pins = pinnedIn[index].sorted { $0.slot != $1.slot ? $0.slot < $1.slot : $0.read > $1.read }
            for pin in pins {
                items.insert(.command(pin.id), at: min(pin.slot, limit))
                limit += 1
            }
            if !items.isEmpty { out.append(items) }
        }
        return out
    }

    /// Categories ordered by use, the least-used merged into the last group when there are too many.
    private func semanticGroups(_ kept: [MenuEntry], gate: UsageGate) -> [[MenuEntry]] {
        var order: [MenuEntry.Category] = []
        var members: [MenuEntry.Category: [MenuEntry]] = [:]
        for entry in kept {
            if members[entry.category] == nil { order.append(entry.category) }
            members[entry.category, default: []].append(entry)
        }
        let most: ([MenuEntry]) -> Double = { $0.map(\.count).max() ?? 0 }
        var groups = gate.sorted(order.map { gate.sorted(members[$0]!, by: \.count) }, by: most)
        let limit = options.maxGroups
        if groups.count > limit {
            let merged = groups[(limit - 1)...].flatMap { $0 }.sorted { $0.read < $1.read }
            groups = gate.sorted(Array(groups.prefix(limit - 1)) + [gate.sorted(merged, by: \.count)], by: most)
        }
        return groups
    }

    /// The use-ordered list cut into the fewest consecutive groups that hold it next to the pinned
    /// commands, the tail and the overflow slot; nil when even `maxGroups` groups cannot.
    private func usageGroups(_ kept: [MenuEntry], pinned: [MenuEntry], tailSlots: Int, overflow: Int,
                             gate: UsageGate) -> [[MenuEntry]]?
    {
        if kept.isEmpty { return [] }
        let ordered = gate.sorted(kept, by: \.count)
        let size = options.maxGroupSize
        for count in 1...options.maxGroups {
            var capacity = [Int](repeating: size, count: count)
            for entry in pinned { capacity[min(entry.group, count - 1)] -= 1 }
            capacity[count - 1] -= tailSlots + (overflow > 0 ? 1 : 0)
            guard capacity.allSatisfy({ $0 >= 0 }), capacity.reduce(0, +) >= ordered.count else { continue }
            var groups: [[MenuEntry]] = []
            var start = 0
            for (index, room) in capacity.enumerated() {
                let end = index == count - 1 ? ordered.count : min(ordered.count, start + room)
                groups.append(Array(ordered[start..<end]))
                start = end
            }
            return groups
        }
        return nil
    }

    /// The overflow as one item: nothing, the lone command, or a titled submenu ordered by use.
    private static func item(holding entries: [MenuEntry], gate: UsageGate) -> MenuItem? {
        if entries.isEmpty { return nil }
        if entries.count == 1 { return .command(entries[0].id) }
        let ordered = gate.sorted(entries.sorted { $0.read < $1.read }, by: \.count)
        return .submenu(Submenu(title: SubmenuTitle.title(for: ordered), items: ordered.map { .command($0.id) }))
    }

    /// The destructive commands ordered by use in at most `slots` items, the last a submenu when
    /// they do not all fit.
    private static func tailItems(_ tail: [MenuEntry], slots: Int, gate: UsageGate) -> [MenuItem] {
        let ordered = gate.sorted(tail, by: \.count)
        if ordered.count <= slots { return ordered.map { .command($0.id) } }
        let plain = ordered.prefix(slots - 1).map { MenuItem.command($0.id) }
        return plain + [item(holding: Array(ordered.dropFirst(slots - 1)), gate: gate)!]
    }
}
