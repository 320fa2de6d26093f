public import Menus

/// Current against proposed layout, command by command; what review output renders.
public struct LayoutDiff: Hashable, Sendable {
    public enum Change: String, Hashable, Sendable, CaseIterable {
        /// Same group, index and submenu position.
        case unchanged
        /// Fewer items to scan than before.
        case movedUp
        /// More items to scan than before.
        case movedDown
        /// As many items to scan, in another group or place (a separator moved around it).
        case regrouped
        /// From the top level into a submenu.
        case movedIntoSubmenu
        /// From a submenu to the top level.
        case movedOutOfSubmenu
        /// Flagged for pruning and left out of the proposal.
        case pruned
        /// Left out of the proposal without a prune flag.
        case removed
        /// In the proposal only.
        case added
    }

    public struct Entry: Hashable, Sendable {
        public var command: String
        public var old: LayoutPosition?
        public var new: LayoutPosition?
        public var change: Change

        public init(command: String, old: LayoutPosition?, new: LayoutPosition?, change: Change) {
            self.command = command
            self.old = old
            self.new = new
            self.change = change
        }
    }

    /// Commands of the current layout in its reading order, then commands only in the proposal in
    /// the proposal's reading order.
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Compares two layouts; commands missing from `proposed` are `pruned` when listed in `pruned`.
    public init(current: Layout, proposed: Layout, pruned: Set<String> = []) {
        let old = LayoutPosition.positions(in: current)
        let new = LayoutPosition.positions(in: proposed)
        var entries: [Entry] = []
        for id in current.distinctCommands {
            let before = old[id]!
            guard let after = new[id] else {
                entries.append(Entry(command: id, old: before, new: nil, change: pruned.contains(id) ? .pruned : .removed))
                continue
            }
            entries.append(Entry(command: id, old: before, new: after, change: Self.change(from: before, to: after)))
        }
        let listed = Set(current.distinctCommands)
        for id in proposed.distinctCommands where !listed.contains(id) {
            entries.append(Entry(command: id, old: nil, new: new[id], change: .added))
        }
        self.init(entries: entries)
    }

    /// Convenience: the diff of a proposal against the layout it was made from.
    public init(current: Layout, proposal: Proposal) {
        self.init(current: current, proposed: proposal.layout, pruned: Set(proposal.pruned.map { $0.command }))
    }

    /// True when some command changed place or left the menu.
    public var hasChanges: Bool { entries.contains { $0.change != .unchanged } }

    public func entry(_ command: String) -> Entry? { entries.first { $0.command == command } }

    private static func change(from before: LayoutPosition, to after: LayoutPosition) -> Change {
        if before.group == after.group, before.index == after.index, before.submenuIndex == after.submenuIndex,
           before.submenus.count == after.submenus.count
        {
            return .unchanged
        }
        if !before.isInSubmenu, after.isInSubmenu { return .movedIntoSubmenu }
        if before.isInSubmenu, !after.isInSubmenu { return .movedOutOfSubmenu }
        if after.scanCost < before.scanCost { return .movedUp }
        if after.scanCost > before.scanCost { return .movedDown }
        return .regrouped
    }
}
