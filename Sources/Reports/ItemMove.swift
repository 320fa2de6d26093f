public import Recommender

/// One command of a proposal's diff: where it was, where it goes, and what kind of move that is.
public struct ItemMove: Hashable, Sendable {
    public var command: String
    public var change: LayoutDiff.Change
    /// Position in the current layout; nil for a command only in the proposal.
    public var from: ItemPosition?
    /// Position in the proposed layout; nil for a pruned or removed command.
    public var to: ItemPosition?

    public init(command: String, change: LayoutDiff.Change, from: ItemPosition?, to: ItemPosition?) {
        self.command = command
        self.change = change
        self.from = from
        self.to = to
    }

    /// True unless the command stays where it was.
    public var isChange: Bool { change != .unchanged }
}
