public import Menus
import Ranking

/// The ladder of a proposal (DESIGN.md, "The proposal is the smallest change that delivers the
/// gain"): promote, reorder, regroup, each containing the changes of the one before.
extension Recommender {
    /// Commands that move as one (invariants 4-5): a manifest `together` set, or Cut, Copy and
    /// Paste when the current menu keeps them in one group or submenu; else a single command.
    /// Members keep their given order (a `together` set's, or Cut, Copy, Paste).
    struct Unit {
        let members: [MenuEntry]
        let evidence: UsageGate.Evidence
        let firstRead: Int
        /// The members' ids, in order: made once, as the promote step asks for them in every
        /// trial (built per question, they cost about 3% of `recommend`'s client CPU on the
        /// benchmark's 1,000 menus).
        let ids: [String]

        init(_ members: [MenuEntry]) {
            self.members = members
            evidence = members.reduce(UsageGate.Evidence.zero) { $0 + $1.evidence }
            firstRead = members.map { $0.origin }.min() ?? 0
            ids = members.map { $0.id }
        }
    }

    /// The units of `entries` (regular commands: neither pruned, pinned nor destructive), by
    /// first reading.
    static func units(of entries: [MenuEntry], together: [[String]]) -> [Unit] {
        let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var assigned = Set<String>()
        var units: [Unit] = []
        for set in together {
            let members = set.compactMap { byID[$0] }
            guard members.count >= 2, members.allSatisfy({ !assigned.contains($0.id) }) else { continue }
            members.forEach { assigned.insert($0.id) }
            units.append(Unit(members))
        }
        // Cut, Copy and Paste of one container (its group and its innermost submenu).
        var clipboard: [String: [CommandRole: MenuEntry]] = [:]
        for entry in entries where !assigned.contains(entry.id) {
            guard let role = entry.info.conventionalRole,
                  CommandRole.clipboard.contains(role) else { continue }
            let key = "\(entry.group)/\(entry.submenu ?? "")"
            if clipboard[key]?[role] == nil { clipboard[key, default: [:]][role] = entry }
        }
        for key in clipboard.keys.sorted() {
            let members = CommandRole.clipboard.compactMap { clipboard[key]![$0] }
            guard members.count >= 2 else { continue }
            members.forEach { assigned.insert($0.id) }
            units.append(Unit(members))
        }
        for entry in entries where !assigned.contains(entry.id) { units.append(Unit([entry])) }
        return units.sorted { $0.firstRead < $1.firstRead }
    }

    // MARK: promote

    /// The promote step from `base` (the current layout with its pruned commands and repeated
    /// listings taken out): a top section of at most `maxGroups - 1` groups, filled in
    /// order of use per place with units that are significantly more used than every item they push
    /// out of the first `slots` places of the menu; the rest of the menu as it was without them.
    /// Returns the layout, the index of the section's first group and the number of its groups.
    ///
    /// The section stands at the head unless one of its units would pass a unit it does not beat
    /// (invariant 6): then it stands below the last group that holds such a unit.
    ///
    /// Use is compared per place, as the reorder step compares groups: a unit of k commands takes k
    /// places, so it passes an item of m places when its use times m beats the item's use times k
    /// (the exchange that lowers the scan depth of the people as a whole). A command that moves
    /// with a unit (Cut of Cut, Copy, Paste) stands for its unit: its use per place is the unit's.
    /// Without that, a unit of three would pass a single command for its size alone, and a single
    /// command used more than each of Cut, Copy and Paste together per place could never pass one
    /// of them.
    func promote(base: Layout, units: [Unit], evidence: (String) -> UsageGate.Evidence,
                 gate: UsageGate) -> (layout: Layout, sectionStart: Int, sectionGroups: Int)
    {
        let size = options.maxGroupSize
        let slots = (options.maxGroups - 1) * size
        guard slots > 0 else { return (base, 0, 0) }
        let ranked = Self.byUsePerPlace(units, gate: gate)
        var unitOf: [String: Unit] = [:]
        for unit in units where unit.members.count > 1 {
            for id in unit.ids { unitOf[id] = unit }
        }

        /// The top-level items of `base`, each with its index (its key below), the commands it
        /// holds in reading order and the use it is compared with per place (`places`): made once,
        /// as every trial reads them.
        typealias Item = (ids: [String], isSubmenu: Bool, evidence: UsageGate.Evidence, places: Double)
        let items: [Item] = base.groups.flatMap { group in
            group.map { item -> Item in
                switch item {
                case let .command(id):
                    if let unit = unitOf[id] { return ([id], false, unit.evidence, Double(unit.members.count)) }
                    return ([id], false, evidence(id), 1)
                case .submenu:
                    let held = Layout(groups: [[item]]).commandsInOrder
                    return (held, true, held.reduce(UsageGate.Evidence.zero) { $0 + evidence($1) }, 1)
                }
            }
        }

        /// The top-level items of `base` without `promoted`, each with its key, evidence (a
        /// submenu with the use of what it still holds) and places.
        func sequence(without promoted: Set<String>) -> [(key: Int, evidence: UsageGate.Evidence, places: Double)] {
            var out: [(key: Int, evidence: UsageGate.Evidence, places: Double)] = []
            out.reserveCapacity(items.count)
            for (key, item) in items.enumerated() {
                if !item.isSubmenu {
                    if !promoted.contains(item.ids[0]) { out.append((key, item.evidence, item.places)) }
                    continue
                }
                guard item.ids.contains(where: promoted.contains) else {
                    out.append((key, item.evidence, 1))
                    continue
                }
                let held = item.ids.filter { !promoted.contains($0) }
                if held.isEmpty { continue }
                out.append((key, held.reduce(UsageGate.Evidence.zero) { $0 + evidence($1) }, 1))
            }
            return out
        }

        // The units that beat each unit per place, found when first asked for (a unit is among the
        // most used only when every unit that beats it is in the section before it).
        let candidates = units.filter { $0.members.count <= size }
        var beaters: [String: [String]] = [:]
        func beatenOnlyBy(_ chosen: Set<String>, _ unit: Unit) -> Bool {
            let key = unit.ids[0]
            if beaters[key] == nil {
                beaters[key] = units.filter { Self.beatsPerPlace($0, unit, gate: gate) }.map { $0.ids[0] }
            }
            return beaters[key]!.allSatisfy(chosen.contains)
        }

        /// The units that fill the section in ranked order, leaving out `banned`.
        func fill(banned: Set<String>) -> [Unit] {
            var chosen: [Unit] = []
            var firsts = Set<String>()
            for unit in ranked where unit.members.count <= size && !banned.contains(unit.ids[0]) {
                let trial = chosen + [unit]
                guard Self.pack(trial, size: size, groups: options.maxGroups - 1) != nil else { continue }
                // Among the most used: its use is evidence (more than one person's), and every unit
                // that beats it is already in (asked only of units that fit, so that a full
                // section asks nothing more).
                guard gate.beats(unit.evidence, .zero), beatenOnlyBy(firsts, unit) else { continue }
                chosen = trial
                firsts.insert(unit.ids[0])
            }
            return chosen
        }
        // Units that pass what they do not beat, and promotions out of a submenu that resamples
        // would not repeat, leave the section; the places they leave are filled again without
        // them, until every unit of the section is settled.
        let strict = gate.raised(by: NormalDistribution.quantile(options.minStability))
        let topLevel = Set(base.groups.joined().compactMap { if case let .command(id) = $0 { id } else { nil } })
        var banned = Set<String>()
        var chosen = fill(banned: banned)
        let position = Dictionary(base.commandsInOrder.enumerated().map { ($0.element, $0.offset) },
                                  uniquingKeysWith: { first, _ in first })
        // The items in the first `slots` places of the menu as it is.
        let topBefore = Set(sequence(without: []).prefix(slots).map { $0.key })
        var start = 0
        while true {
            var leaving = Set(chosen.map { $0.ids[0] })
            for unit in Self.separated(chosen, from: candidates, topLevel: topLevel, gate: gate, strict: strict) {
                leaving.remove(unit.ids[0])
            }
            if leaving.isEmpty, !chosen.isEmpty {
                // Where the section goes: above every group whose units each of its units beats
                // (invariant 6: nothing passes what it does not beat, in a submenu or not), so
                // below the last group that holds one it does not beat and came before it. A unit
                // that would not move up there (no command before it would then come after it)
                // leaves the section; at the head, the rule below applies instead.
                let inside = Set(chosen.flatMap { $0.ids })
                let rest = Self.removing(inside, from: base)
                var groupOf: [String: Int] = [:]
                for (index, group) in rest.groups.enumerated() {
                    for id in Layout(groups: [group]).commandsInOrder { groupOf[id] = index }
                }
                start = 0
                for other in units where !other.ids.contains(where: inside.contains) {
                    guard let group = other.ids.compactMap({ groupOf[$0] }).min(), group >= start else { continue }
                    if chosen.contains(where: { other.firstRead < $0.firstRead && !Self.beatsPerPlace($0, other, gate: gate) }) {
                        start = group + 1
                    }
                }
                if start > 0 {
                    let from = start < rest.groups.count
                        ? Layout(groups: [rest.groups[start]]).commandsInOrder.compactMap { position[$0] }.min() ?? .max
                        : .max
                    for unit in chosen where unit.ids.compactMap({ position[$0] }).min() ?? .max <= from {
                        leaving.insert(unit.ids[0])
                    }
                }
                // Every unit beats every item the section, where it stands, pushes out of the
                // first `slots` places (DESIGN.md: what it displaces from the top section).
                let left = sequence(without: inside)
                let above = rest.groups.prefix(start).reduce(0) { $0 + $1.count }
                let places = chosen.reduce(0) { $0 + $1.members.count }
                let topAfter = Set(left.prefix(min(slots, above)).map { $0.key })
                    .union(left.dropFirst(above).prefix(max(0, slots - above - places)).map { $0.key })
                let pushed = left.filter { topBefore.contains($0.key) && !topAfter.contains($0.key) }
                for unit in chosen {
                    let count = Double(unit.members.count)
                    if !pushed.allSatisfy({ gate.beats(unit.evidence, times: $0.places, $0.evidence, times: count) }) {
                        leaving.insert(unit.ids[0])
                    }
                }
            }
            guard !leaving.isEmpty else { break }
            banned.formUnion(leaving)
            chosen = fill(banned: banned)
        }
        guard let packed = Self.pack(chosen, size: size, groups: options.maxGroups - 1), !packed.isEmpty else {
            return (base, 0, 0)
        }
        // A section that holds the head of the menu in its own order moves nothing up: it would
        // only regroup the head into groups of `size` (on a menu without use, or one already in
        // order, every unit fits and none passes another). The menu stays as it is.
        let promotedIDs = packed.flatMap { $0.flatMap { $0.ids } }
        if start == 0, Array(base.commandsInOrder.prefix(promotedIDs.count)) == promotedIDs { return (base, 0, 0) }
        let section = packed.map { $0.flatMap { $0.ids }.map(MenuItem.command) }
        let rest = Self.removing(Set(chosen.flatMap { $0.ids }), from: base).groups
        return (Layout(groups: Array(rest.prefix(start)) + section + Array(rest.dropFirst(start))), start, section.count)
    }

    /// Whether unit `b` is used significantly more than unit `a` per place (b's use times a's
    /// number of commands against a's use times b's).
    static func beatsPerPlace(_ b: Unit, _ a: Unit, gate: UsageGate) -> Bool {
        gate.beats(b.evidence, times: Double(a.members.count), a.evidence, times: Double(b.members.count))
    }

    /// `units` in the gated order of their use per place, from their given order.
    static func byUsePerPlace(_ units: [Unit], gate: UsageGate) -> [Unit] {
        gatedWithFixed(units, pinned: { _ in false }, last: { _ in false }) { beatsPerPlace($0, $1, gate: gate) }
    }

    /// `chosen` without the units that may not stay in the section once it is known what stays
    /// out of it (`candidates` less `chosen`: the units that could take a place of the section):
    ///
    /// - **Passing** (invariant 6): a unit moves above a unit of the top level that came before it
    ///   in the current menu only when it is used significantly more per place. (What it passes in
    ///   a submenu, it passes as that submenu's place, which the promote step weighs when the
    ///   submenu leaves the top places.)
    /// - **Reproducible top level**: a unit that comes out of a submenu must be separated from
    ///   every unit left out by the `strict` gate, per place. The stability figure compares the
    ///   top-level commands of resamples of people (invariant 6), and only a command that comes
    ///   out of a submenu changes them. When the last places go to one of several near-ties (four
    ///   commands used alike for three places), which of them wins changes with whoever is in the
    ///   sample, and so does the top level. The strict gate's critical value is the gate's plus
    ///   the normal quantile of `--min-stability` (1.96 + 1.28 at the defaults): a difference the
    ///   gate does not find in the data as observed is found in fewer than 1 - min-stability of
    ///   the resamples (whose test statistic spreads about the observed one with unit deviation),
    ///   so the command stays in its submenu in the data and in the resamples alike. Two commands
    ///   of the top level used alike may take either place: the top level is the same.
    static func separated(_ chosen: [Unit], from candidates: [Unit], topLevel: Set<String>, gate: UsageGate,
                          strict: UsageGate) -> [Unit]
    {
        let inside = Set(chosen.flatMap { $0.ids })
        let outside = candidates.filter { !$0.ids.contains(where: inside.contains) }
        let outsideTop = outside.filter { $0.ids.allSatisfy(topLevel.contains) }
        return chosen.filter { unit in
            let passes = outsideTop.allSatisfy { $0.firstRead > unit.firstRead || beatsPerPlace(unit, $0, gate: gate) }
            return passes && (unit.ids.allSatisfy(topLevel.contains)
                || outside.allSatisfy { beatsPerPlace(unit, $0, gate: strict) })
        }
    }

    /// Units packed in order into at most `groups` groups of at most `size` commands, a unit never
    /// across two groups; nil when they do not fit.
    static func pack(_ units: [Unit], size: Int, groups: Int) -> [[Unit]]? {
        var out: [[Unit]] = []
        var room = 0
        for unit in units {
            let count = unit.members.count
            if count > room {
                out.append([])
                room = size
            }
            guard count <= room else { return nil }
            out[out.count - 1].append(unit)
            room -= count
        }
        return out.count <= groups ? out : nil
    }

    // MARK: reorder

    /// The reorder step from the promote step's layout: the section stays where it stands; around
    /// it, the items of every group and submenu in order of use (the gated sort from their current
    /// order; a unit as one block; pinned items at their index; destructive ones last), the
    /// groups in order of their use per place (a group with a pinned command keeps its index, a
    /// group of destructive commands only comes last), and the rarely used commands out of the
    /// way, in a group of their own at the end (`demoting`), when that costs the menu no shape.
    func reorder(_ layout: Layout, sectionStart: Int, sectionGroups: Int, units: [Unit], commands: [String: CommandInfo],
                 evidence: (String) -> UsageGate.Evidence, gate: UsageGate) -> Layout
    {
        var unitOf: [String: [String]] = [:]
        for unit in units where unit.members.count > 1 {
            for id in unit.ids { unitOf[id] = unit.ids }
        }
        func info(_ id: String) -> CommandInfo { commands[id] ?? CommandInfo(title: id) }

        /// A block of one container: a unit's members, a command or a submenu.
        struct Block {
            var items: [MenuItem]
            var evidence: UsageGate.Evidence
            var pinned: Bool
            var destructive: Bool
        }
        func ordered(_ items: [MenuItem]) -> [MenuItem] {
            var blocks: [Block] = []
            var done = Set<String>()
            let here = Set(items.compactMap { if case let .command(id) = $0 { id } else { nil } })
            for item in items {
                switch item {
                case let .command(id):
                    guard !done.contains(id) else { continue }
                    if let members = unitOf[id], members.allSatisfy(here.contains) {
                        members.forEach { done.insert($0) }
                        blocks.append(Block(items: members.map(MenuItem.command),
                                            evidence: members.reduce(.zero) { $0 + evidence($1) },
                                            pinned: members.contains { info($0).pinned },
                                            destructive: members.allSatisfy { info($0).destructive }))
                    } else {
                        done.insert(id)
                        blocks.append(Block(items: [item], evidence: evidence(id), pinned: info(id).pinned,
                                            destructive: info(id).destructive && !info(id).pinned))
                    }
                case let .submenu(submenu):
                    let inner = ordered(submenu.items)
                    let held = Layout(groups: [inner]).commandsInOrder
                    blocks.append(Block(items: [.submenu(Submenu(title: submenu.title, items: inner))],
                                        evidence: held.reduce(.zero) { $0 + evidence($1) }, pinned: false,
                                        destructive: !held.isEmpty && held.allSatisfy { info($0).destructive }))
                }
            }
            return Self.gatedWithFixed(blocks, pinned: { $0.pinned }, last: { $0.destructive }, evidence: { $0.evidence }, gate: gate)
                .flatMap { $0.items }
        }
        let section = Array(layout.groups.dropFirst(sectionStart).prefix(sectionGroups))
        struct GroupBlock {
            var items: [MenuItem]
            var evidence: UsageGate.Evidence
            var pinned: Bool
            var destructive: Bool
        }
        func block(_ items: [MenuItem]) -> GroupBlock {
            let held = Layout(groups: [items]).commandsInOrder
            return GroupBlock(items: items, evidence: held.reduce(.zero) { $0 + evidence($1) },
                              pinned: held.contains { info($0).pinned },
                              destructive: !held.isEmpty && held.allSatisfy { info($0).destructive })
        }
        // Groups by use per place: group b passes group a above it when b's use times a's number
        // of top-level items beats a's use times b's (the exchange that lowers the scan depth of
        // the people as a whole; a big group no longer passes a small one for its size alone).
        func isDestructive(_ item: MenuItem) -> Bool {
            if case let .command(id) = item { info(id).destructive && !info(id).pinned } else { false }
        }
        func byUsePerPlace(_ groups: [GroupBlock]) -> [GroupBlock] {
            Self.gatedWithFixed(groups, pinned: { $0.pinned }, last: { $0.destructive }) { b, a in
                gate.beats(b.evidence, times: Double(a.items.count), a.evidence, times: Double(b.items.count))
            }
        }
        // The groups above the section and those below it, each part in order; the section stays
        // where the promote step put it.
        let head = byUsePerPlace(layout.groups.prefix(sectionStart).map { block(ordered($0)) })
        let below = byUsePerPlace(layout.groups.dropFirst(sectionStart + sectionGroups).map { block(ordered($0)) })
        let groups = head + section.map { GroupBlock(items: $0, evidence: block($0).evidence, pinned: true, destructive: false) }
            + below
        let movable = Set(units.filter { $0.members.count == 1 }.map { $0.ids[0] })
        let demoted = Self.demoting(groups.map { $0.items }, movable: movable, keep: groups.map { $0.pinned },
                                    last: groups.map { $0.destructive },
                                    endsDestructive: groups.map { $0.items.last.map(isDestructive) ?? false },
                                    gainShare: options.minGainShare,
                                    gate: gate) { item in
            switch item {
            case let .command(id): evidence(id)
            case .submenu: Layout(groups: [[item]]).commandsInOrder.reduce(.zero) { $0 + evidence($1) }
            }
        }
        let kept = Layout(groups: groups.map { $0.items })
        guard !demoted.moved.isEmpty else { return kept }
        // What is left of the groups, in order again now that the rarely used are out of them
        // (the section's groups, where no command moves from, mark where it stands).
        let at = section.first.flatMap { first in demoted.body.firstIndex(of: first) } ?? 0
        let body = byUsePerPlace(demoted.body.prefix(at).map(block)).map { $0.items } + section
            + byUsePerPlace(demoted.body.dropFirst(at + section.count).map(block)).map { $0.items }
        let moved = Layout(groups: body + [demoted.moved] + demoted.tail)
        // A group of its own must not cost the menu its shape (more groups than allowed, which
        // only a larger step would fix).
        let before = Set(shapeFindings(of: kept))
        return shapeFindings(of: moved).allSatisfy(before.contains) ? moved : kept
    }

    /// The rarely used commands of `groups` moved to a group of their own at the end, before the
    /// groups of destructive commands only (`last`), which stay last. A command moves when what it
    /// would no longer stand in front of, every top-level item after it, is used significantly
    /// more than it times the number of those items: moving it down saves each use below it a
    /// place and costs each of its own uses that many places, so the gate on people (invariant 6)
    /// says the menu's scan depth falls for the people as a whole. Only `movable` commands
    /// (neither pinned, destructive nor part of a unit) move, and only out of groups of two or
    /// more that hold no pinned command (`keep`: a pinned command keeps its index); the first in
    /// reading order goes first, until none qualifies. The moved ones follow in the gated order of
    /// their use.
    static func demoting(_ groups: [[MenuItem]], movable: Set<String>, keep: [Bool], last: [Bool],
                         endsDestructive: [Bool], gainShare: Double, gate: UsageGate, evidence: (MenuItem) -> UsageGate.Evidence)
        -> (body: [[MenuItem]], moved: [MenuItem], tail: [[MenuItem]])
    {
        // The groups of destructive commands only stay last, and so does a last group that ends
        // with a destructive command (destructive ones come last, invariant 4).
        var tail = last.reversed().prefix { $0 }.count
        if tail < groups.count, endsDestructive[groups.count - tail - 1] { tail += 1 }
        let all = demotingAll(groups, movable: movable, keep: keep, tail: tail, gate: gate, evidence: evidence)
        // The smallest change that delivers the gain (invariant 5), command by command: the moves
        // with the largest saving first, as few as give `gainShare` of the saving of them all.
        let total = all.savings.reduce(0) { $0 + $1.saving }
        var kept = Set<String>()
        var sum = 0.0
        for move in all.savings.sorted(by: { $0.saving != $1.saving ? $0.saving > $1.saving : $0.id < $1.id }) {
            guard sum < gainShare * total else { break }
            kept.insert(move.id)
            sum += move.saving
        }
        guard kept.count < all.savings.count else { return (all.body, all.moved, all.tail) }
        let fewer = demotingAll(groups, movable: kept, keep: keep, tail: tail, gate: gate, evidence: evidence)
        return (fewer.body, fewer.moved, fewer.tail)
    }

    /// Every move `demoting` would make, in the order made, each with its saving under the
    /// ordering weight (the use below it less its own use times the places it moves down).
    static func demotingAll(_ groups: [[MenuItem]], movable: Set<String>, keep: [Bool], tail: Int,
                            gate: UsageGate, evidence: (MenuItem) -> UsageGate.Evidence)
        -> (body: [[MenuItem]], moved: [MenuItem], tail: [[MenuItem]], savings: [(id: String, saving: Double)])
    {
        guard !movable.isEmpty, groups.count > 1 else { return (groups, [], [], []) }
        var body = groups.prefix(groups.count - tail).map { group in group.map { ($0, evidence($0)) } }
        var keeps = Array(keep.prefix(groups.count - tail))
        var moved: [(MenuItem, UsageGate.Evidence)] = []
        var savings: [(id: String, saving: Double)] = []
        let movedEvidence = { moved.reduce(UsageGate.Evidence.zero) { $0 + $1.1 } }
        search: while true {
            // What stands below each top-level item: the items after it, the moved ones and the
            // destructive tail are not counted (the tail stays below either way).
            let flat = body.indices.flatMap { g in body[g].indices.map { (g, $0) } }
            var below = [UsageGate.Evidence](repeating: .zero, count: flat.count + 1)
            below[flat.count] = movedEvidence()
            for n in flat.indices.reversed() { below[n] = below[n + 1] + body[flat[n].0][flat[n].1].1 }
            for (n, (g, i)) in flat.enumerated() where body[g].count >= 2 && !keeps[g] {
                guard case let .command(id) = body[g][i].0, movable.contains(id) else { continue }
                let places = flat.count - 1 - n + moved.count
                guard places > 0, gate.beats(below[n + 1], times: 1, body[g][i].1, times: Double(places)) else { continue }
                savings.append((id, below[n + 1].count - Double(places) * body[g][i].1.count))
                moved.append(body[g].remove(at: i))
                if body[g].isEmpty {
                    body.remove(at: g)
                    keeps.remove(at: g)
                }
                continue search
            }
            break
        }
        guard !moved.isEmpty else { return (groups, [], [], []) }
        return (body.map { $0.map(\.0) }, gate.sorted(moved, by: \.1).map(\.0), Array(groups.suffix(tail)), savings)
    }

    /// The gated sort of `elements` by use, with the pinned ones at their index and the `last`
    /// ones (destructive) after the others, in gated order among themselves.
    static func gatedWithFixed<T>(_ elements: [T], pinned: (T) -> Bool, last: (T) -> Bool,
                                  evidence: (T) -> UsageGate.Evidence, gate: UsageGate) -> [T]
    {
        let fixed = elements.enumerated().filter { pinned($0.element) }
        let free = elements.filter { !pinned($0) }
        var out = gate.sorted(free.filter { !last($0) }, by: evidence) + gate.sorted(free.filter(last), by: evidence)
        for (index, element) in fixed { out.insert(element, at: min(index, out.count)) }
        return out
    }

    /// `gatedWithFixed` with a pairwise test: `beats(b, a)` says b goes above a.
    static func gatedWithFixed<T>(_ elements: [T], pinned: (T) -> Bool, last: (T) -> Bool,
                                  beats: (T, T) -> Bool) -> [T]
    {
        func sorted(_ part: [T]) -> [T] {
            var out: [T] = []
            for element in part {
                var index = out.count
                while index > 0, beats(element, out[index - 1]) { index -= 1 }
                out.insert(element, at: index)
            }
            return out
        }
        let fixed = elements.enumerated().filter { pinned($0.element) }
        let free = elements.filter { !pinned($0) }
        var out = sorted(free.filter { !last($0) }) + sorted(free.filter(last))
        for (index, element) in fixed { out.insert(element, at: min(index, out.count)) }
        return out
    }

    // MARK: layouts

    /// `layout` with the later listings of a command listed twice taken out (the first wins).
    static func firstListings(of layout: Layout) -> Layout {
        var seen = Set<String>()
        func clean(_ items: [MenuItem]) -> [MenuItem] {
            items.compactMap { item in
                switch item {
                case let .command(id): return seen.insert(id).inserted ? item : nil
                case let .submenu(submenu): return .submenu(Submenu(title: submenu.title, items: clean(submenu.items)))
                }
            }
        }
        return Layout(groups: layout.groups.map(clean)).normalized
    }

    /// `layout` without the commands `ids`: emptied submenus and groups go, and a submenu left with
    /// a single command is replaced by that command (DESIGN.md, "Grouping").
    static func removing(_ ids: Set<String>, from layout: Layout) -> Layout {
        guard !ids.isEmpty else { return layout }
        func clean(_ items: [MenuItem]) -> [MenuItem] {
            items.compactMap { item in
                switch item {
                case let .command(id): return ids.contains(id) ? nil : item
                case let .submenu(submenu):
                    let inner = clean(submenu.items)
                    if inner.isEmpty { return nil }
                    if inner.count == 1, inner != submenu.items, case .command = inner[0] { return inner[0] }
                    return .submenu(Submenu(title: submenu.title, items: inner))
                }
            }
        }
        return Layout(groups: layout.groups.map(clean)).normalized
    }

    /// The commands whose container differs between `current` and `proposed`, and those missing
    /// from `proposed`, in `current`'s reading order. A command's container is its submenu (by the
    /// titles from the top level down) or, at the top level, its group; a group of `proposed` is
    /// the same group as the group of `current` it is matched with (one to one, most top-level
    /// commands in common first, then reading order).
    public static func moved(from current: Layout, to proposed: Layout) -> [String] {
        MoveBase(current).moved(to: proposed)
    }

    /// What `moved(from:to:)` needs of the current layout, taken once: a ladder compares every
    /// step with the same current layout.
    struct MoveBase {
        let containers: [String: (group: Int, path: String?)]
        let order: [String]

        init(_ current: Layout) {
            containers = Self.containers(current)
            order = current.distinctCommands
        }

        /// Each command's container (its first listing): its group at the top level, or its
        /// submenu's titles from the top level down.
        static func containers(_ layout: Layout) -> [String: (group: Int, path: String?)] {
            var out: [String: (Int, String?)] = [:]
            func visit(_ items: [MenuItem], group: Int, path: String?) {
                for item in items {
                    switch item {
                    case let .command(id): if out[id] == nil { out[id] = (group, path) }
                    case let .submenu(submenu): visit(submenu.items, group: group, path: (path.map { $0 + "\u{1f}" } ?? "") + submenu.title)
                    }
                }
            }
            for (index, group) in layout.groups.enumerated() { visit(group, group: index, path: nil) }
            return out
        }

        /// `moved(from:to:)` from the current layout taken.
        func moved(to proposed: Layout) -> [String] {
            let before = containers
            let after = Self.containers(proposed)
            // Overlap of top-level commands between proposed group p and current group c.
            var overlap: [Int: [Int: Int]] = [:]
            for (id, place) in after where place.path == nil {
                guard let old = before[id], old.path == nil else { continue }
                overlap[place.group, default: [:]][old.group, default: 0] += 1
            }
            var pairs: [(p: Int, c: Int, n: Int)] = []
            for (p, row) in overlap { for (c, n) in row { pairs.append((p, c, n)) } }
            pairs.sort { $0.n != $1.n ? $0.n > $1.n : ($0.p != $1.p ? $0.p < $1.p : $0.c < $1.c) }
            var match: [Int: Int] = [:]
            var taken = Set<Int>()
            for pair in pairs where match[pair.p] == nil && !taken.contains(pair.c) {
                match[pair.p] = pair.c
                taken.insert(pair.c)
            }
            return order.filter { id in
                guard let old = before[id], let new = after[id] else { return true }
                if old.path != nil || new.path != nil { return old.path != new.path }
                return match[new.group] != old.group
            }
        }
    }

    /// The shape findings of a layout that the regroup step fixes: HIG-6 (more groups than
    /// allowed), HIG-2 (more top-level items than the shape holds), HIG-4 (a nested submenu).
    func shapeFindings(of layout: Layout) -> [String] {
        var out: [String] = []
        if layout.groups.count > options.maxGroups { out.append("HIG-6") }
        if layout.groups.reduce(0, { $0 + $1.count }) > options.maxGroups * options.maxGroupSize { out.append("HIG-2") }
        let nested = layout.groups.joined().contains { item in
            guard case let .submenu(submenu) = item else { return false }
            return submenu.items.contains { if case .submenu = $0 { true } else { false } }
        }
        if nested { out.append("HIG-4") }
        return out
    }
}
