public import Menus
import Ranking

/// Proposes a better menu for one element type from its current layout and its usage
/// (DESIGN.md, "Recommendation"). Pure and deterministic: dictionaries are only read through
/// sorted keys or lookups, so the same inputs give the same proposal.
///
/// The algorithm, step by step:
/// 1. Flatten the current layout in reading order (nested submenus included, a command listed
///    twice kept at its first listing). Shares are taken of all the element type's selections,
///    commands outside the layout included.
/// 2. Prune: a command whose share has an upper Wilson bound below `pruneThreshold` is flagged and
///    left out of the layout, unless it is `keep` or `pinned` (a pinned command keeps its place).
///    With no or little data the upper bound stays high, so thin data never prunes.
/// 3. The rest splits into pinned commands, destructive commands (the tail, kept at the very end of
///    the menu) and regular commands.
/// 4. Ordering by use is always the stability-gated stable sort of `UsageGate` (an item passes
///    another only when it is significantly more used), starting from the current reading order.
/// 5. Grouping. Semantic: categories (`CommandInfo.category`, else the current group), each ordered
///    by use; a category larger than a group is cut into consecutive groups; groups are ordered by
///    their most-used command; when there are more than `maxGroups`, the least-used merge into the
///    last group (ordered by use) and the groups are ordered again. A pinned command stays in its
///    category's (first) group at its current index. Usage: all regular commands ordered by use,
///    cut into the fewest consecutive groups that hold them; a pinned command stays in its current
///    group (the last one when there are fewer) at its current index.
/// 6. Overflow: the regular commands that do not fit are the least-used by raw count, so every
///    top-level command is used at least as much as every command in the overflow submenu. The
///    recommender tries 0, 1, 2, ... overflow commands and takes the first count whose arrangement
///    fits the shape. Overflow commands take the free slots of the last group as plain items; when
///    they are more than the free slots, the last slot becomes a submenu holding the rest, titled
///    after what it holds. A submenu of one command is never made: the command stands alone.
/// 7. The destructive tail ends the last group, ordered by use; when that group has no room and
///    fewer than `maxGroups` groups are used, the tail (with the overflow) opens a group of its
///    own; failing that, the tail folds into a submenu of its own before regular commands go.
///    When pinned commands cannot all keep their place, the least-used lose their pin
///    (`Proposal.unpinned`).
/// 8. Settle: categories come from the groups arranged from, so a proposal arranged again could
///    differ from itself. The arrangement is repeated from its own result (sorts still starting
///    from the current layout's order) until it no longer changes, so accepting a proposal never
///    files another one (a fixed point, checked on 20,000 generated menus).
public struct Recommender: Sendable {
    public var options: Options

    /// At most this many re-arrangements while settling a proposal.
    static let settleRounds = 8

    public init(options: Options = Options()) {
        self.options = options
    }

    /// - Parameter menuUsers: distinct people who used the element type's menu in the window (the
    ///   denominator of reach); 0 when unknown.
    public func recommend(current: ElementMenu, commands: [String: CommandInfo],
                          usage: [String: UsageCount], menuUsers: Int) -> Proposal
    {
        let gate = UsageGate(confidence: options.confidence)
        var selections: [String: Double] = [:]
        var users: [String: Int] = [:]
        for (id, count) in usage {
            selections[id] = count.selections > 0 ? count.selections : 0
            users[id] = max(0, count.users)
        }
        // Sum in a fixed order so the total is the same bit for bit on every run.
        let total = selections.keys.sorted().reduce(0.0) { $0 + selections[$1]! }
        let entries = MenuEntry.entries(of: current.layout, commands: commands, selections: selections, users: users)

        var pruned: [PruneFlag] = []
        var regular: [MenuEntry] = []
        var tail: [MenuEntry] = []
        var pinned: [MenuEntry] = []
        for entry in entries {
            let interval = WilsonInterval(successes: entry.count, trials: total, z: gate.z)
            if !entry.info.keep, !entry.info.pinned, interval.upper < options.pruneShare {
                pruned.append(PruneFlag(command: entry.id, selections: entry.count, share: interval.estimate,
                                        interval: interval, users: entry.users))
            } else if entry.info.pinned {
                pinned.append(entry)
            } else if entry.info.destructive {
                tail.append(entry)
            } else {
                regular.append(entry)
            }
        }

        var (layout, unpinned) = arrange(regular: regular, tail: tail, pinned: pinned, gate: gate)
        // Settle: a proposal must propose itself again (accepting it files nothing new). The
        // arrangement reads categories and pinned places from the groups it starts from, so a first
        // arrangement can regroup enough to allow a better one: arrange again from the result until
        // it stays put. Sorts by use keep starting from the current layout's order, so that every
        // item placed above another is judged against the current layout, not an intermediate one.
        let readOrder = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.read) })
        for _ in 0..<Self.settleRounds {
            let placed = MenuEntry.entries(of: layout, commands: commands, selections: selections, users: users,
                                           origins: readOrder)
            let next = arrange(regular: placed.filter { !$0.info.pinned && !$0.info.destructive },
                               tail: placed.filter { !$0.info.pinned && $0.info.destructive },
                               pinned: placed.filter(\.info.pinned), gate: gate)
            if next.layout == layout { break }
            // A command that lost its pin in an earlier round sits pinned at its new place in the
            // next round's input, so it is not reported again: keep every round's report.
            layout = next.layout
            unpinned = Set(unpinned + next.unpinned).sorted { readOrder[$0, default: .max] < readOrder[$1, default: .max] }
        }

        let listed = Set(entries.map(\.id))
        let unknown = selections.keys.filter { !listed.contains($0) && selections[$0]! > 0 }
            .map { UnknownCommand(command: $0, selections: selections[$0]!, users: users[$0] ?? 0) }
            .sorted { $0.selections != $1.selections ? $0.selections > $1.selections : $0.command < $1.command }

        let evidence = ScanEvidence(
            totalSelections: total,
            currentScanDepth: ScanEvidence.scanDepth(of: current.layout, selections: selections, total: total),
            proposedScanDepth: ScanEvidence.scanDepth(of: layout, selections: selections, total: total),
            secondsPerItem: 0.4)
        return Proposal(layout: layout, pruned: pruned, unknownCommands: unknown,
                        unpinned: unpinned.sorted { readOrder[$0]! < readOrder[$1]! }, evidence: evidence,
                        changed: layout != current.layout.normalized)
    }

    /// `recommend` with raw selection counts and no reach.
    public func recommend(current: ElementMenu, commands: [String: CommandInfo],
                          selections: [String: Int]) -> Proposal
    {
        recommend(current: current, commands: commands, usage: selections.mapValues { UsageCount(selections: $0) },
                  menuUsers: 0)
    }
}
