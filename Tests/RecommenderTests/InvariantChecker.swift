import Menus
import Ranking
import Recommender

/// Checks the invariants of DESIGN.md ("Recommendation") on one proposal, independently of the
/// recommender's code paths. Returns what is violated, empty when all hold. Messages start with
/// the DESIGN.md invariant's number.
struct InvariantChecker {
    var menu: ElementMenu
    var commands: [String: CommandInfo]
    var usage: [String: UsageCount]
    var menuUsers: Int
    var categories: [String: CategoryInfo] = [:]
    var options: Recommender.Options

    init(menu: ElementMenu, commands: [String: CommandInfo], usage: [String: UsageCount], menuUsers: Int,
         categories: [String: CategoryInfo] = [:], options: Recommender.Options)
    {
        self.menu = menu
        self.commands = commands
        self.usage = usage
        self.menuUsers = menuUsers
        self.categories = categories
        self.options = options
    }

    init(menu: ElementMenu, commands: [String: CommandInfo], selections: [String: Int], options: Recommender.Options) {
        self.init(menu: menu, commands: commands, usage: selections.mapValues { UsageCount(selections: $0) },
                  menuUsers: 0, options: options)
    }

    private var gate: UsageGate { UsageGate(confidence: options.confidence) }
    /// The weighted count ordering compares.
    private func count(_ id: String) -> Double { max(0, usage[id]?.weighted(options.weight) ?? 0) }
    /// What the recommender's gate compares: the count with its split by person bucket (when known).
    private func evidence(_ id: String) -> UsageGate.Evidence {
        UsageGate.Evidence(count: count(id), people: usage[id]?.weightedPeople(options.weight) ?? [])
    }
    private func picks(_ id: String) -> Double { max(0, usage[id]?.selections ?? 0) }
    private func info(_ id: String) -> CommandInfo { commands[id] ?? CommandInfo(title: id) }
    private func isRegular(_ id: String) -> Bool { !info(id).pinned && !info(id).destructive }

    func violations(of proposal: Proposal) -> [String] {
        var out: [String] = []
        let current = menu.layout
        let proposed = proposal.layout
        let total = usage.keys.sorted().reduce(0.0) { $0 + picks($1) }

        // 1. Nothing lost, nothing invented.
        let placed = proposed.commandsInOrder + proposal.pruned.map(\.command)
        if placed.sorted() != current.distinctCommands.sorted() {
            out.append("1: commands \(placed.sorted()) != current \(current.distinctCommands.sorted())")
        }
        let listed = Set(current.distinctCommands)
        let expectedUnknown = usage.keys.filter { !listed.contains($0) && picks($0) > 0 }.sorted()
        if proposal.unknownCommands.map(\.command).sorted() != expectedUnknown {
            out.append("1: unknown \(proposal.unknownCommands.map(\.command)) != \(expectedUnknown)")
        }

        // 2. Shape.
        if proposed.groups.count > options.maxGroups { out.append("2: \(proposed.groups.count) groups") }
        for group in proposed.groups {
            if group.isEmpty { out.append("2: empty group") }
            if group.count > options.maxGroupSize { out.append("2: group of \(group.count)") }
            for case let .submenu(submenu) in group {
                if submenu.items.count < 2 { out.append("2: submenu of \(submenu.items.count)") }
                if submenu.title.isEmpty || ["more", "other"].contains(submenu.title.lowercased()) {
                    out.append("2: submenu title '\(submenu.title)'")
                }
                for case .submenu in submenu.items { out.append("2: nested submenu") }
            }
        }

        // 3. Most-used first.
        var topRegular: [String] = []
        var groupKeys: [String] = []
        for group in proposed.groups {
            let regular = group.compactMap { item -> String? in
                if case let .command(id) = item, isRegular(id) { return id }
                return nil
            }
            for (upper, lower) in zip(regular, regular.dropFirst()) where gate.beats(evidence(lower), evidence(upper)) {
                out.append("4: \(lower) (\(count(lower))) below \(upper) (\(count(upper)))")
            }
            topRegular += regular
            if let most = regular.max(by: { count($0) < count($1) }) { groupKeys.append(most) }
        }
        // Semantic groups are ordered by their most-used command; usage grouping is checked item by
        // item across the whole top level instead.
        for (upper, lower) in zip(groupKeys, groupKeys.dropFirst())
            where options.grouping == .semantic && gate.beats(evidence(lower), evidence(upper))
        {
            out.append("4: group led by \(count(lower)) below group led by \(count(upper))")
        }
        if options.grouping == .usage {
            for (upper, lower) in zip(topRegular, topRegular.dropFirst()) where gate.beats(evidence(lower), evidence(upper)) {
                out.append("4 (usage): \(lower) below \(upper) across groups")
            }
        }
        let inSubmenus = proposed.groups.flatMap { $0 }.flatMap { item -> [String] in
            if case let .submenu(submenu) = item { return Submenu(title: "", items: submenu.items).commandIDs }
            return []
        }.filter { !info($0).destructive }
        // "Used at least as much" under the stability gate (invariant 6): no command in a submenu
        // is significantly more used than a top-level one.
        if let lowestTop = topRegular.min(by: { count($0) < count($1) }),
           let highestSub = inSubmenus.max(by: { count($0) < count($1) }),
           gate.beats(evidence(highestSub), evidence(lowestTop))
        {
            out.append("4: top-level \(count(lowestTop)) used less than submenu \(count(highestSub))")
        }
        // Destructive last: in reading order, nothing but destructive commands after the first one.
        let reading = proposed.groups.enumerated().flatMap { index, group in group.map { (index, $0) } }
        if let first = reading.firstIndex(where: { isDestructiveItem($0.1) }) {
            for (group, item) in reading[first...] where !isDestructiveItem(item) {
                out.append("4: \(item) after a destructive command")
                _ = group
            }
            if reading[first].0 != proposed.groups.count - 1 { out.append("4: destructive command before the last group") }
        }
        // Pinned: at the top level, at its index in its group (or pushed down by the other pinned
        // commands of that group, or up when the group is shorter), unless reported as unpinned.
        let currentPositions = LayoutPosition.positions(in: current)
        let proposedPositions = LayoutPosition.positions(in: proposed)
        for id in current.distinctCommands where info(id).pinned && !proposal.unpinned.contains(id) {
            guard let before = currentPositions[id], let after = proposedPositions[id] else {
                out.append("4: pinned \(id) missing")
                continue
            }
            if after.isInSubmenu {
                out.append("4: pinned \(id) in a submenu")
                continue
            }
            let sharing = proposed.groups[after.group].filter { item in
                if case let .command(other) = item, other != id, info(other).pinned, !proposal.unpinned.contains(other) {
                    return true
                }
                return false
            }.count
            if after.index > before.index + sharing {
                out.append("4: pinned \(id) moved from \(before.group):\(before.index) to \(after.group):\(after.index)")
            }
        }

        // 4. Stability: within a group (usage grouping: the whole top level), an item is above one
        // listed before it only when it beats it.
        let readIndex = Dictionary(uniqueKeysWithValues: current.distinctCommands.enumerated().map { ($1, $0) })
        let spans: [[String]] = options.grouping == .usage ? [topRegular] : proposed.groups.map { group in
            group.compactMap { item -> String? in
                if case let .command(id) = item, isRegular(id) { return id }
                return nil
            }
        }
        for span in spans {
            for (i, upper) in span.enumerated() {
                for lower in span[(i + 1)...] where readIndex[lower]! < readIndex[upper]! {
                    if !gate.beats(evidence(upper), evidence(lower)) {
                        out.append("6: \(upper) (\(count(upper))) moved above \(lower) (\(count(lower))) on noise")
                    }
                }
            }
        }

        // 7. Pruning: both upper bounds below their thresholds (reach unknown: the share alone).
        let z = NormalDistribution.criticalValue(confidence: options.confidence)
        let flagged = Dictionary(uniqueKeysWithValues: proposal.pruned.map { ($0.command, $0) })
        for id in current.distinctCommands {
            let interval = WilsonInterval(successes: picks(id), trials: total, z: z)
            let users = min(max(0, usage[id]?.users ?? 0), menuUsers)
            let reach = WilsonInterval(successes: Double(users), trials: Double(menuUsers), z: z)
            let expected = !info(id).keep && !info(id).pinned && interval.upper < options.pruneShare
                && (menuUsers == 0 || reach.upper < options.pruneReach)
            if expected != (flagged[id] != nil) { out.append("7: \(id) flagged \(flagged[id] != nil), expected \(expected)") }
            if let flag = flagged[id] {
                if abs(flag.share - picks(id) / total) > 1e-12 || abs(flag.shareHigh - interval.upper) > 1e-12
                    || abs(flag.shareLow - interval.lower) > 1e-12 || flag.selections != picks(id)
                    || (menuUsers > 0 && (flag.reach == nil || abs(flag.reach!.upper - reach.upper) > 1e-12))
                    || flag.menuUsers != menuUsers || flag.users != max(0, usage[id]?.users ?? 0)
                {
                    out.append("7: flag of \(id) carries \(flag)")
                }
            }
        }

        out += coherenceAndRoom(proposal)

        // 7. Evidence, recomputed here.
        // 9. Evidence, recomputed here: every command of the current layout counts, a pruned one
        // costs the fallback (by default the current layout's items + 1).
        let fallback = options.fallbackCost ?? Double(itemCount(current.groups.flatMap { $0 }) + 1)
        let depthCurrent = scanDepth(current, total: total, over: current.distinctCommands, fallback: fallback)
        let depthProposed = scanDepth(proposed, total: total, over: current.distinctCommands, fallback: fallback)
        let displaced = total > 0 ? proposal.pruned.reduce(0.0) { $0 + picks($1.command) } / total : 0
        if abs(proposal.evidence.currentScanDepth - depthCurrent) > 1e-9
            || abs(proposal.evidence.proposedScanDepth - depthProposed) > 1e-9
            || abs(proposal.evidence.displacedShare - displaced) > 1e-12 || proposal.evidence.fallbackCost != fallback
        {
            out.append("9: evidence \(proposal.evidence) vs \(depthCurrent), \(depthProposed), displaced \(displaced)")
        }
        if proposal.step != .regroup, proposal.changed != (proposed != current.normalized) { out.append("changed flag wrong") }
        return out
    }

    private func isDestructiveItem(_ item: MenuItem) -> Bool {
        switch item {
        case let .command(id): info(id).destructive && !info(id).pinned
        case let .submenu(submenu): Submenu(title: "", items: submenu.items).commandIDs.allSatisfy { info($0).destructive }
        }
    }

    /// Items of a layout, submenus and their items included.
    private func itemCount(_ items: [MenuItem]) -> Int {
        items.reduce(0) { total, item in
            if case let .submenu(submenu) = item { return total + 1 + itemCount(submenu.items) }
            return total + 1
        }
    }

    /// Expected scan depth by a second, straightforward reading of the definition.
    private func scanDepth(_ layout: Layout, total: Double, over commands: [String], fallback: Double) -> Double {
        guard total > 0 else { return 0 }
        var cost: [String: Int] = [:]
        var position = 0
        func walk(_ items: [MenuItem], offset: Int) {
            for (index, item) in items.enumerated() {
                switch item {
                case let .command(id):
                    if cost[id] == nil { cost[id] = offset + index + 1 }
                case let .submenu(submenu):
                    walk(submenu.items, offset: offset + index + 1)
                }
            }
        }
        for group in layout.groups {
            walk(group, offset: position)
            position += group.count
        }
        return commands.reduce(0.0) { $0 + picks($1) / total * (cost[$1].map(Double.init) ?? fallback) }
    }
}

extension Submenu {
    /// Every command inside, nested submenus expanded.
    var commandIDs: [String] { Layout(groups: [items]).commandsInOrder }
}

extension InvariantChecker {
    /// The ladder's rules (DESIGN.md, "The proposal is the smallest change that delivers the gain",
    /// invariants 1, 3 and 5) on every offered step, and the rule that chooses the filed one.
    func ladderViolations(of proposal: Proposal) -> [String] {
        var out: [String] = []
        let current = menu.layout
        let pruned = Set(proposal.pruned.map(\.command))
        // The current menu's submenus by title, with the commands they hold.
        var submenus: [String: Set<String>] = [:]
        func collect(_ items: [MenuItem]) {
            for case let .submenu(submenu) in items {
                submenus[submenu.title, default: []].formUnion(Layout(groups: [submenu.items]).commandsInOrder)
                collect(submenu.items)
            }
        }
        current.groups.forEach(collect)
        for step in proposal.ladder {
            guard let layout = step.layout else {
                if step.whyNot == nil { out.append("ladder: \(step.kind) not offered without a reason") }
                continue
            }
            // 1. Every command once: in the layout or pruned.
            let placed = layout.commandsInOrder + pruned
            if placed.sorted() != current.distinctCommands.sorted() {
                out.append("1: \(step.kind) holds \(placed.sorted()), not \(current.distinctCommands.sorted())")
            }
            if step.kind != .regroup {
                // 3. The smaller steps make no submenu: each is one of the current menu's, holding
                // some of its commands.
                func check(_ items: [MenuItem]) {
                    for case let .submenu(submenu) in items {
                        let held = Set(Layout(groups: [submenu.items]).commandsInOrder)
                        if !(submenus[submenu.title].map(held.isSubset) ?? false) {
                            out.append("3: \(step.kind) makes submenu '\(submenu.title)'")
                        }
                        check(submenu.items)
                    }
                }
                layout.groups.forEach(check)
            }
            for id in step.moved where !current.distinctCommands.contains(id) {
                out.append("ladder: \(step.kind) moves \(id), which is not in the menu")
            }
        }
        // The filed step: the smallest changed one with enough of the best gain, unless a larger
        // offered step fixes its shape.
        let changed = proposal.ladder.filter { $0.offered && $0.gain > 0 && $0.layout!.normalized != current.normalized }
        if let step = proposal.step {
            let best = changed.map(\.gain).max() ?? 0
            guard let filed = changed.first(where: { $0.kind == step }) else {
                return out + ["ladder: filed \(step) is not a changed step"]
            }
            // (A regroup that fixes the shape may be filed with less, when the larger gains leave a
            // shape finding.)
            if filed.gain < options.minGainShare * best, filed.gain < best, step != .regroup {
                out.append("ladder: filed \(step) delivers \(filed.gain) of the best \(best)")
            }
            if proposal.layout != filed.layout { out.append("ladder: the proposal is not its filed step's layout") }
        } else if proposal.changed {
            out.append("ladder: changed without a filed step")
        }
        return out
    }
}
