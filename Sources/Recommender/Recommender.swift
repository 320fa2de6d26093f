public import Menus
import Ranking

/// Proposes a better menu for one element type from its current layout and its usage
/// (DESIGN.md, "Recommendation"). Pure and deterministic: dictionaries are only read through
/// sorted keys or lookups, so the same inputs give the same proposal.
///
/// The algorithm, step by step:
/// 1. Flatten the current layout in reading order (nested submenus included, a command listed
///    twice kept at its first listing). Each command gets its count under `Options.weight`
///    (user-days by default, selections with `.selections`) and its category (`MenuEntry`): the
///    manifest `category` (titled by `categories`, else by its name), else its outermost current
///    submenu with a good title, else its current group (titled by the group's title, if any).
///    A top-level command does not join a submenu beside it: Paste beside a "Copy Path" submenu
///    is not a path command, and a group without a title becomes a lint finding (HIG-3) when it
///    must become a submenu, not a submenu named after something else.
/// 2. Prune (invariant 7): a command is flagged only when the upper Wilson bound of its share of
///    the element type's selections is below `pruneShare` and the upper bound of its reach (users /
///    `menuUsers`) is below `pruneReach` (reach unknown: the share alone), unless it is `keep` or
///    `pinned`. With thin data the upper bounds stay high, so thin data never prunes.
/// 3. The rest splits into pinned commands, destructive commands (the tail, kept at the very end of
///    the menu) and regular commands.
/// 4. Ordering by use is always the stability-gated stable sort of `UsageGate` (an item passes
///    another only when it is significantly more used), starting from the current reading order.
/// 5. When every regular command fits at the top level: semantic grouping makes groups of
///    categories, each ordered by use; a category larger than a group is cut into consecutive
///    groups; groups are ordered by their most-used command; when there are more than
///    `maxGroups`, the least-used merge into the last group. Usage grouping cuts the use-ordered
///    list into the fewest consecutive groups. Pinned commands keep their slot.
/// 6. Otherwise the top level is filled (`arrangeFull`): the K most-used commands stay at the top
///    level and the rest stay reachable in submenus, each holding the rest of one category and
///    titled after it (a category's one remaining command stands alone when it is the most used
///    of the rest); untitled categories, and single commands less used than another in a submenu,
///    go to one merged submenu titled after the titled categories it holds (an untitled one is
///    reported, `Proposal.untitledCategories`, and lint asks the manifest for a title). While the
///    items outnumber the free slots, the least-used categories merge too. K is the largest count
///    that fills the top level with no category merged for want of room; when every count needs
///    merges, the one with the least expected selection time (`MenuTimeModel`, weighted by the
///    ordering count). The top-level commands read in order of use, then the submenus by their
///    most-used command, cut consecutively into the groups.
/// 7. The destructive tail ends the last group, ordered by use; when it does not fit it folds into
///    a submenu of its own. When pinned commands cannot all keep their place, the least-used lose
///    their pin (`Proposal.unpinned`).
/// 8. Settle: the arrangement is repeated from its own result (categories kept, sorts starting from
///    the current layout's order) until it no longer changes; submenus are titled after the
///    current layout's categories; then the run on the proposal itself (what accepting it and
///    running again would do) is repeated until it gives the proposal back, so accepting a
///    proposal files nothing new (a fixed point, checked by the property tests).
/// 9. Evidence (`ScanEvidence`): honest expected scan depth (a pruned command costs
///    `fallbackCost`), the displaced share, and the expected selection time of `MenuTimeModel`,
///    current and proposed.
public struct Recommender: Sendable {
    public var options: Options

    /// At most this many re-arrangements while settling a proposal.
    static let settleRounds = 8

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Steps 1 to 8: the proposed layout with what the evidence is computed from; what the
    /// day-bootstrap stability compares (`stability`), which needs no evidence.
    /// - Parameter settle: false for steps 1 to 3 alone (the entries, the prune flags and the
    ///   counts, which the promote and reorder steps read): the arrangement of steps 4 to 8 is
    ///   skipped, and `layout` is then the current layout's first listings, not a proposal (what
    ///   the stability bootstrap asks for when the regroup step is not offered).
    func arrangement(current: ElementMenu, commands: [String: CommandInfo], usage: [String: UsageCount],
                     menuUsers: Int, categories: [String: CategoryInfo], gate: UsageGate,
                     settle: Bool = true) -> Arrangement
    {
        let counts = MenuEntry.Counts(weight: options.weight, usage: usage)
        let ids = usage.keys.sorted()
        // Sum in a fixed order so the total is the same bit for bit on every run.
        let total = ids.reduce(0.0) { $0 + counts.selections($1) }
        let entries = MenuEntry.entries(of: current, commands: commands, categories: categories, counts: counts)

        var pruned: [PruneFlag] = []
        var regular: [MenuEntry] = []
        var tail: [MenuEntry] = []
        var pinned: [MenuEntry] = []
        for entry in entries {
            if !entry.info.keep, !entry.info.pinned, let flag = pruneFlag(entry, total: total, menuUsers: menuUsers, z: gate.z) {
                pruned.append(flag)
            } else if entry.info.pinned {
                pinned.append(entry)
            } else if entry.info.destructive {
                tail.append(entry)
            } else {
                regular.append(entry)
            }
        }

        let readOrder = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.read) })
        guard settle else {
            return Arrangement(layout: Self.firstListings(of: current.layout), unpinned: [], entries: entries,
                               pruned: pruned, counts: counts, ids: ids, total: total, readOrder: readOrder)
        }
        var (layout, unpinned) = settled(regular: regular, tail: tail, pinned: pinned, commands: commands,
                                         categories: categories, counts: counts, gate: gate)
        layout = Self.retitled(layout, entries: entries)
        // Accepting the proposal must file nothing new: the run on the proposal, which reads its
        // categories and its order from the proposal, must give the proposal again. Run it (with the
        // titles of the categories of the layout the proposal is made for) until it does.
        var visited: [Layout] = [layout]
        for _ in 0..<Self.settleRounds {
            let placed = MenuEntry.entries(of: ElementMenu(layout: layout), commands: commands, categories: categories,
                                           counts: counts)
            let next = settled(regular: placed.filter { !$0.info.pinned && !$0.info.destructive },
                               tail: placed.filter { !$0.info.pinned && $0.info.destructive },
                               pinned: placed.filter { $0.info.pinned }, commands: commands, categories: categories,
                               counts: counts, gate: gate)
            let titled = Self.retitled(next.layout, entries: entries)
            if titled == layout { break }
            unpinned = Set(unpinned + next.unpinned).sorted { readOrder[$0, default: .max] < readOrder[$1, default: .max] }
            if let start = visited.firstIndex(of: titled) {
                // A cycle: the arrangements from `start` on repeat forever. Choose one of them by a
                // rule that does not depend on where the cycle was entered, so the run on the chosen
                // proposal, which goes round the same cycle, chooses it again (a fixed point).
                layout = Self.representative(of: Array(visited[start...]), counts: counts)
                break
            }
            visited.append(titled)
            layout = titled
        }
        return Arrangement(layout: layout, unpinned: unpinned, entries: entries, pruned: pruned, counts: counts, ids: ids,
                           total: total, readOrder: readOrder)
    }

    /// What `arrangement` gives.
    struct Arrangement {
        var layout: Layout
        var unpinned: [String]
        var entries: [MenuEntry]
        var pruned: [PruneFlag]
        var counts: MenuEntry.Counts
        /// The commands with usage, sorted.
        var ids: [String]
        var total: Double
        var readOrder: [String: Int]
    }

    /// - Parameters:
    ///   - menuUsers: distinct people who used the element type's menu in the window (the
    ///     denominator of reach); 0 when unknown (then the share alone decides a prune flag).
    ///   - categories: the manifest's `categories` (their titles title the submenus made of them).
    ///   - together: the manifest's `together` sets (they move as one unit).
    public func recommend(current: ElementMenu, commands: [String: CommandInfo],
                          usage: [String: UsageCount], menuUsers: Int,
                          categories: [String: CategoryInfo] = [:], together: [[String]] = []) -> Proposal
    {
        let steps = ladder(current: current, commands: commands, usage: usage, menuUsers: menuUsers,
                           categories: categories, together: together, gate: UsageGate(confidence: options.confidence))
        let arranged = steps.arranged
        let (entries, pruned) = (arranged.entries, arranged.pruned)
        let (counts, ids, readOrder) = (arranged.counts, arranged.ids, arranged.readOrder)
        let listed = Set(entries.map { $0.id })
        let unknown = ids.filter { !listed.contains($0) && counts.selections($0) > 0 }
            .map { UnknownCommand(command: $0, selections: counts.selections($0), users: counts.users($0),
                                  userDays: counts.userDays($0)) }
            .sorted { $0.selections != $1.selections ? $0.selections > $1.selections : $0.command < $1.command }

        let filed = steps.steps.first { $0.kind == steps.filed }
        let layout = filed?.layout ?? current.layout.normalized
        let (submenus, untitled) = Self.origins(of: layout, entries: entries)
        let evidence = filed?.evidence ?? self.evidence(of: layout, current: current.layout, arranged: arranged)
        var proposal = Proposal(layout: layout, pruned: filed == nil ? [] : pruned, unknownCommands: unknown,
                                unpinned: filed?.kind == .regroup
                                    ? arranged.unpinned.sorted { readOrder[$0]! < readOrder[$1]! } : [],
                                evidence: evidence, changed: filed != nil, submenus: submenus,
                                untitledCategories: filed?.kind == .regroup ? untitled : [])
        proposal.ladder = steps.steps
        proposal.step = filed?.kind
        proposal.shapeNote = steps.shapeNote
        if filed == nil {
            // Nothing filed: the prune flags still show (invariant 7), the layout stays.
            proposal.pruned = pruned
        }
        return proposal
    }

    /// The honest evidence of `layout` against `current` (invariant 9).
    func evidence(of layout: Layout, current: Layout, arranged: Arrangement) -> ScanEvidence {
        evidence(against: current, arranged: arranged)(layout)
    }

    /// `evidence(of:current:arranged:)` of any layout against `current`: what depends on `current`
    /// alone (its picks, fallback cost, scan depth and model time) is computed once, not once per
    /// step of the ladder.
    func evidence(against current: Layout, arranged: Arrangement) -> (Layout) -> ScanEvidence {
        let counts = arranged.counts
        let total = arranged.total
        let listedIDs = current.distinctCommands
        let picks = Dictionary(uniqueKeysWithValues: listedIDs.map { ($0, counts.selections($0)) })
        let fallback = options.fallbackCost ?? Double(ScanEvidence.itemCount(of: current) + 1)
        let model = MenuTimeModel()
        func expertise(_ id: String) -> Double {
            MenuTimeModel.expertise(selections: counts.selections(id), users: counts.users(id))
        }
        func seconds(_ layout: Layout) -> Double {
            model.expectedTime(of: layout, commands: listedIDs, weight: { picks[$0] ?? 0 }, total: total,
                               expertise: expertise, fallback: fallback)
        }
        let currentScanDepth = ScanEvidence.scanDepth(of: current, commands: listedIDs, selections: picks, total: total,
                                                      fallback: fallback)
        let currentSeconds = seconds(current)
        return { layout in
            let kept = Set(layout.distinctCommands)
            let displaced = listedIDs.filter { !kept.contains($0) }.reduce(0.0) { $0 + (picks[$1] ?? 0) }
            return ScanEvidence(
                totalSelections: total, currentScanDepth: currentScanDepth,
                proposedScanDepth: ScanEvidence.scanDepth(of: layout, commands: listedIDs, selections: picks,
                                                          total: total, fallback: fallback),
                fallbackCost: fallback,
                displacedShare: total > 0 ? displaced / total : 0,
                currentSeconds: currentSeconds, proposedSeconds: seconds(layout), model: model)
        }
    }

    /// The three steps of the ladder with their moves and evidence, which one is filed, the
    /// regroup arrangement they were built beside, and the shape note when regroup is not offered
    /// for want of room.
    struct Ladder {
        var steps: [LadderStep]
        var filed: LadderStep.Kind?
        var arranged: Arrangement
        var shapeNote: String?
        /// Each step's layout (nil when not offered), what stability compares.
        var layouts: [LadderStep.Kind: Layout] {
            Dictionary(uniqueKeysWithValues: steps.compactMap { step in step.layout.map { (step.kind, $0) } })
        }
    }

    /// The three steps' layouts (regroup nil when not offered) and what they were built from.
    struct StepLayouts {
        var promote: Layout
        /// Nil only when not asked for (`stepLayouts(..., steps:)`).
        var reorder: Layout?
        var regroup: (layout: Layout?, whyNot: String?, shapeNote: String?)
        var arranged: Arrangement

        func layout(_ kind: LadderStep.Kind) -> Layout? {
            switch kind {
            case .promote: promote
            case .reorder: reorder
            case .regroup: regroup.layout
            }
        }
    }

    /// The layouts of the ladder's steps.
    /// - Parameter wanted: the steps the caller reads besides promote (which the others start
    ///   from, so it is always built). The stability bootstrap asks for less (`Bootstrap.votes`):
    ///   a step left out is nil, and without regroup the arrangement is not settled
    ///   (`arrangement(..., settle: false)`, its layout not a proposal).
    func stepLayouts(current: ElementMenu, commands: [String: CommandInfo], usage: [String: UsageCount],
                     menuUsers: Int, categories: [String: CategoryInfo], together: [[String]],
                     gate: UsageGate, steps wanted: Set<LadderStep.Kind> = Set(LadderStep.Kind.allCases)) -> StepLayouts
    {
        let arranged = arrangement(current: current, commands: commands, usage: usage, menuUsers: menuUsers,
                                   categories: categories, gate: gate, settle: wanted.contains(.regroup))
        let counts = arranged.counts
        let prunedIDs = Set(arranged.pruned.map { $0.command })
        let base = Self.removing(prunedIDs, from: Self.firstListings(of: current.layout))
        let regular = arranged.entries.filter { !prunedIDs.contains($0.id) && !$0.info.pinned && !$0.info.destructive }
        let units = Self.units(of: regular, together: together)
        let evidence = { (id: String) in counts.evidence(id) }
        let promoted = promote(base: base, units: units, evidence: evidence, gate: gate)
        let reordered = wanted.contains(.reorder)
            ? reorder(promoted.layout, sectionStart: promoted.sectionStart, sectionGroups: promoted.sectionGroups, units: units, commands: commands,
                      evidence: evidence, gate: gate)
            : nil
        return StepLayouts(promote: promoted.layout, reorder: reordered,
                           regroup: wanted.contains(.regroup) ? regrouped(arranged, units: units, regular: regular)
                               : (nil, nil, nil),
                           arranged: arranged)
    }

    func ladder(current: ElementMenu, commands: [String: CommandInfo], usage: [String: UsageCount], menuUsers: Int,
                categories: [String: CategoryInfo], together: [[String]], gate: UsageGate) -> Ladder
    {
        let layouts = stepLayouts(current: current, commands: commands, usage: usage, menuUsers: menuUsers,
                                  categories: categories, together: together, gate: gate)
        let arranged = layouts.arranged
        let (promoted, reordered, regroup) = (layouts.promote, layouts.reorder!, layouts.regroup)
        let normalizedCurrent = current.layout.normalized
        let evidence = self.evidence(against: current.layout, arranged: arranged)
        let base = MoveBase(current.layout)
        func step(_ kind: LadderStep.Kind, _ layout: Layout?, whyNot: String? = nil) -> LadderStep {
            guard let layout else { return LadderStep(kind: kind, layout: nil, whyNot: whyNot) }
            return LadderStep(kind: kind, layout: layout, moved: base.moved(to: layout),
                              evidence: evidence(layout))
        }
        var steps = [step(.promote, promoted), step(.reorder, reordered),
                     step(.regroup, regroup.layout, whyNot: regroup.whyNot)]

        // The smallest step with at least `minGainShare` of the best gain that leaves no shape
        // finding a larger offered step fixes; a step that changes nothing or saves no time is
        // never filed.
        let changed = steps.filter { $0.layout.map { $0.normalized != normalizedCurrent } ?? false && $0.gain > 0 }
        let best = changed.map { $0.gain }.max() ?? 0
        let fixable = { (step: LadderStep) -> Bool in
            let findings = self.shapeFindings(of: step.layout!)
            return changed.contains { larger in
                larger.kind > step.kind && !self.shapeFindings(of: larger.layout!).contains(where: findings.contains)
                    && !findings.isEmpty
            }
        }
        let eligible = changed.filter { $0.gain >= options.minGainShare * best && !fixable($0) }
        // When no step has both, the shape wins: the step with the most gain among those that leave
        // nothing a larger step fixes.
        let filed = eligible.first?.kind ?? changed.filter { !fixable($0) }.max { $0.gain < $1.gain }?.kind
            ?? changed.max { $0.gain < $1.gain }?.kind
        for index in steps.indices where steps[index].kind != filed && steps[index].whyNot == nil {
            let candidate = steps[index]
            if candidate.layout?.normalized == normalizedCurrent || candidate.gain <= 0 {
                steps[index].whyNot = "changes nothing that saves time"
            } else if let filed, candidate.kind < filed {
                steps[index].whyNot = fixable(candidate)
                    ? "leaves \(shapeFindings(of: candidate.layout!).joined(separator: ", ")), which a larger step fixes"
                    : "delivers less than \(Int((options.minGainShare * 100).rounded()))% of the best step's gain"
            } else if filed != nil {
                steps[index].whyNot = "a smaller step delivers enough of the gain"
            }
        }
        if steps[2].offered {
            steps[2].unpinned = arranged.unpinned.sorted { arranged.readOrder[$0]! < arranged.readOrder[$1]! }
            steps[2].submenus = Self.origins(of: steps[2].layout!, entries: arranged.entries).0
        }
        return Ladder(steps: steps, filed: filed, arranged: arranged, shapeNote: regroup.shapeNote)
    }

    /// The regroup step: the arrangement to the allowed shape, offered only when none of its
    /// submenus mixes categories or lacks its category's title (invariant 3) and it keeps every
    /// unit in one container (invariants 4-5; their members are then put in the unit's order).
    func regrouped(_ arranged: Arrangement, units: [Unit], regular: [MenuEntry])
        -> (layout: Layout?, whyNot: String?, shapeNote: String?)
    {
        let (submenus, untitled) = Self.origins(of: arranged.layout, entries: arranged.entries)
        if submenus.contains(where: { $0.categories.count > 1 }) {
            return (nil, "the menu's categories do not fit \(options.maxGroups) groups of \(options.maxGroupSize) "
                + "without a submenu that mixes them", shapeNote(arranged))
        }
        if let category = untitled.first {
            return (nil, "\(category.name) would become a submenu but has no title in the manifest (HIG-3)", nil)
        }
        var layout = arranged.layout
        for unit in units where unit.members.count > 1 {
            guard let fixed = Self.keeping(unit.ids, together: layout) else {
                return (nil, "it would split \(unit.members.map { $0.info.title }.joined(separator: ", ")), "
                    + "which move as one", nil)
            }
            layout = fixed
        }
        return (layout, nil, nil)
    }

    /// `layout` with the commands `ids` in their given order inside the one container (group or
    /// submenu) that holds them all; nil when they are not in one container.
    static func keeping(_ ids: [String], together layout: Layout) -> Layout? {
        let wanted = Set(ids)
        var found = false
        func fix(_ items: [MenuItem]) -> [MenuItem]? {
            let here = items.compactMap { if case let .command(id) = $0, wanted.contains(id) { id } else { nil } }
            if here.count == ids.count {
                found = true
                var next = ids.makeIterator()
                return items.map { item in
                    if case let .command(id) = item, wanted.contains(id) { return .command(next.next()!) }
                    return item
                }
            }
            if !here.isEmpty { return nil }
            var out: [MenuItem] = []
            for item in items {
                if case let .submenu(submenu) = item {
                    guard let inner = fix(submenu.items) else { return nil }
                    out.append(.submenu(Submenu(title: submenu.title, items: inner)))
                } else {
                    out.append(item)
                }
            }
            return out
        }
        var groups: [[MenuItem]] = []
        for group in layout.groups {
            guard let fixed = fix(group) else { return nil }
            groups.append(fixed)
        }
        return found ? Layout(groups: groups) : nil
    }

    /// When regroup is not offered for want of room: what would have to leave the menu for every
    /// category to get one item of the shape (its commands, or its submenu), and the share of
    /// selections that costs (invariant 2; a lint finding of HIG-2 and HIG-6).
    func shapeNote(_ arranged: Arrangement) -> String? {
        let slots = options.maxGroups * options.maxGroupSize
        var order: [MenuEntry.Category] = []
        var use: [MenuEntry.Category: (evidence: UsageGate.Evidence, selections: Double, title: String)] = [:]
        let pruned = Set(arranged.pruned.map { $0.command })
        for entry in arranged.entries where !pruned.contains(entry.id) {
            if use[entry.category] == nil {
                order.append(entry.category)
                use[entry.category] = (.zero, 0, entry.categoryTitle ?? entry.category.name)
            }
            use[entry.category]!.evidence = use[entry.category]!.evidence + entry.evidence
            use[entry.category]!.selections += entry.selections
        }
        guard order.count > slots else { return nil }
        let ranked = order.enumerated().sorted {
            let (a, b) = (use[$0.element]!.evidence.count, use[$1.element]!.evidence.count)
            return a != b ? a > b : $0.offset < $1.offset
        }.map { $0.element }
        let leaving = ranked.dropFirst(slots)
        let share = arranged.total > 0 ? leaving.reduce(0.0) { $0 + use[$1]!.selections } / arranged.total : 0
        let names = leaving.map { use[$0]!.title }
        let percent = (share * 1000).rounded() / 10
        return "\(order.count) categories do not fit \(options.maxGroups) groups of \(options.maxGroupSize) with one "
            + "submenu per category: \(leaving.count) would have to leave the menu (\(names.joined(separator: ", "))), "
            + "\(percent)% of selections"
    }

    /// The arrangement of these commands, settled: the arrangement reads categories and pinned
    /// places from the groups it starts from, so a first arrangement can regroup enough to allow a
    /// better one; arrange again from the result until it stays put. Sorts by use keep starting
    /// from the order of the entries given, so that every item placed above another is judged
    /// against that layout, not an intermediate one.
    private func settled(regular: [MenuEntry], tail: [MenuEntry], pinned: [MenuEntry], commands: [String: CommandInfo],
                         categories: [String: CategoryInfo], counts: MenuEntry.Counts, gate: UsageGate)
        -> (layout: Layout, unpinned: [String])
    {
        var (layout, unpinned) = arrange(regular: regular, tail: tail, pinned: pinned, gate: gate)
        let given = regular + tail + pinned
        let readOrder = Dictionary(uniqueKeysWithValues: given.map { ($0.id, $0.origin) })
        // Categories stay those of the layout given: a category read from an intermediate layout
        // could leave the rest of one category in two submenus.
        let category = Dictionary(uniqueKeysWithValues: given.map { ($0.id, ($0.category, $0.categoryTitle)) })
        for _ in 0..<Self.settleRounds {
            let placed = MenuEntry.entries(of: ElementMenu(layout: layout), commands: commands, categories: categories,
                                           counts: counts, origins: readOrder).map { entry in
                category[entry.id].map { entry.recategorized($0.0, title: $0.1) } ?? entry
            }
            let next = arrange(regular: placed.filter { !$0.info.pinned && !$0.info.destructive },
                               tail: placed.filter { !$0.info.pinned && $0.info.destructive },
                               pinned: placed.filter { $0.info.pinned }, gate: gate)
            if next.layout == layout { break }
            // A command that lost its pin in an earlier round sits pinned at its new place in the
            // next round's input, so it is not reported again: keep every round's report.
            layout = next.layout
            unpinned = Set(unpinned + next.unpinned).sorted { readOrder[$0, default: .max] < readOrder[$1, default: .max] }
        }
        return (layout, unpinned)
    }

    /// The member of a cycle of arrangements that a proposal settles on: the one with the least
    /// expected scan depth weighted by the ordering count (the most-used commands highest), of
    /// equals the first by `Layout.ordering` (a total order on layouts). The members hold the same
    /// commands, and each depth is summed in command id order, so the choice is the same from
    /// whichever member the cycle is entered.
    static func representative(of cycle: [Layout], counts: MenuEntry.Counts) -> Layout {
        func depth(_ layout: Layout) -> Double {
            let costs = ScanEvidence.scanCosts(of: layout)
            return costs.keys.sorted().reduce(0.0) { $0 + Double(costs[$1]!) * counts.count($1) }
        }
        let scored = cycle.map { (layout: $0, depth: depth($0), key: $0.orderingKey) }
        return scored.min { $0.depth != $1.depth ? $0.depth < $1.depth : $0.key < $1.key }!.layout
    }

    /// The prune flag of a command, or nil when it stays (invariant 7): flagged only when the upper
    /// Wilson bound of its share is below `pruneShare` and that of its reach below `pruneReach`
    /// (reach unknown, `menuUsers` 0: the share alone decides).
    private func pruneFlag(_ entry: MenuEntry, total: Double, menuUsers: Int, z: Double) -> PruneFlag? {
        let share = WilsonInterval(successes: entry.selections, trials: total, z: z)
        guard share.upper < options.pruneShare else { return nil }
        var reach: WilsonInterval?
        if menuUsers > 0 {
            let interval = WilsonInterval(successes: Double(min(entry.users, menuUsers)), trials: Double(menuUsers), z: z)
            guard interval.upper < options.pruneReach else { return nil }
            reach = interval
        }
        return PruneFlag(command: entry.id, selections: entry.selections, userDays: entry.userDays,
                         share: share.estimate, interval: share, users: entry.users, menuUsers: menuUsers,
                         reach: reach)
    }

    /// The layout with each submenu titled after the categories its commands have in `entries`
    /// (in the order the categories read in that layout; `SubmenuTitle`).
    static func retitled(_ layout: Layout, entries: [MenuEntry]) -> Layout {
        let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
        return Layout(groups: layout.groups.map { group in
            group.map { item in
                guard case let .submenu(submenu) = item else { return item }
                let held = Layout(groups: [submenu.items]).commandsInOrder.compactMap { byID[$0] }
                // Titles in the order their categories read in the current layout, not by use, so
                // that the title does not change with small changes of use.
                var seen: Set<MenuEntry.Category> = []
                let inReadingOrder = held.sorted { $0.read < $1.read }.compactMap { entry -> String?? in
                    seen.insert(entry.category).inserted ? .some(entry.categoryTitle) : nil
                }
                let title = SubmenuTitle.title(categories: inReadingOrder) ?? SubmenuTitle.fallback(for: held)
                return .submenu(Submenu(title: title, items: submenu.items))
            }
        })
    }

    /// Each submenu of a proposal with the categories (of the current layout) of its commands, and
    /// the untitled ones among them.
    static func origins(of layout: Layout, entries: [MenuEntry]) -> ([ProposedSubmenu], [CategoryOrigin]) {
        let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
        var submenus: [ProposedSubmenu] = []
        var untitled: [CategoryOrigin] = []
        for case let .submenu(submenu) in layout.groups.flatMap({ $0 }) {
            var weights: [MenuEntry.Category: Double] = [:]
            var order: [MenuEntry.Category] = []
            var origin: [MenuEntry.Category: CategoryOrigin] = [:]
            for id in Layout(groups: [submenu.items]).commandsInOrder {
                guard let entry = byID[id] else { continue }
                if weights[entry.category] == nil {
                    order.append(entry.category)
                    origin[entry.category] = CategoryOrigin(name: entry.category.name, title: entry.categoryTitle)
                }
                weights[entry.category, default: 0] += entry.count
            }
            let sorted = order.enumerated().sorted {
                weights[$0.element]! != weights[$1.element]! ? weights[$0.element]! > weights[$1.element]! : $0.offset < $1.offset
            }.map { origin[$0.element]! }
            submenus.append(ProposedSubmenu(title: submenu.title, categories: sorted))
            for category in sorted where category.title == nil && !untitled.contains(category) { untitled.append(category) }
        }
        return (submenus, untitled)
    }

    /// `recommend` with raw selection counts and no reach.
    public func recommend(current: ElementMenu, commands: [String: CommandInfo],
                          selections: [String: Int]) -> Proposal
    {
        recommend(current: current, commands: commands, usage: selections.mapValues { UsageCount(selections: $0) },
                  menuUsers: 0)
    }
}
