public import Menus

/// A recommended layout for one element type, with its evidence.
public struct Proposal: Hashable, Sendable {
    /// The proposed menu: at most `maxGroups` groups of at most `maxGroupSize` items, submenus one
    /// level deep and titled, every command of the current layout exactly once unless pruned.
    public var layout: Layout
    /// Commands flagged for pruning (removed from `layout`), in the current layout's reading order.
    public var pruned: [PruneFlag]
    /// Commands seen in telemetry but not in the current layout: selections descending, then id.
    public var unknownCommands: [UnknownCommand]
    /// Pinned commands that could not keep their place (their pinned neighbours, the destructive
    /// tail and the overflow left no room in the shape) and were placed like any other command, in
    /// the current layout's reading order. Review output should point them out.
    public var unpinned: [String]
    /// Every submenu of the proposal with the categories its commands come from, in reading order.
    public var submenus: [ProposedSubmenu]
    /// Categories the proposal needed as (part of) a submenu that have no title in the manifest
    /// (HIG-3: the manifest should give them one), in reading order.
    public var untitledCategories: [CategoryOrigin]
    public var evidence: ScanEvidence
    /// False when the proposed layout equals the current one after normalisation (empty groups
    /// and empty submenus removed): nothing significant to change, so no proposal is filed.
    public var changed: Bool
    /// Share of day-bootstrap resamples of the window whose proposal has the same top level
    /// (`Recommender.stability`); nil when not computed (only proposals that would be filed are).
    public var stability: Double?
    /// The stability was computed and is below `Options.minStability`: the proposal is reported as
    /// tentative and not filed.
    public var tentative: Bool
    /// The ladder: promote, reorder, regroup, each with its layout (nil when not offered), moves,
    /// evidence and stability.
    public var ladder: [LadderStep] = []
    /// The step whose layout is `layout`; nil when nothing changes.
    public var step: LadderStep.Kind?
    /// When the regroup step is not offered for want of room: what would have to leave the menu
    /// and the share of selections that costs (a lint finding of the document).
    public var shapeNote: String?

    public init(layout: Layout, pruned: [PruneFlag], unknownCommands: [UnknownCommand], unpinned: [String] = [],
                evidence: ScanEvidence, changed: Bool, submenus: [ProposedSubmenu] = [],
                untitledCategories: [CategoryOrigin] = [])
    {
        self.submenus = submenus
        self.untitledCategories = untitledCategories
        self.layout = layout
        self.pruned = pruned
        self.unknownCommands = unknownCommands
        self.unpinned = unpinned
        self.evidence = evidence
        self.changed = changed
        stability = nil
        tentative = false
    }

    /// Records the proposal's stability; below `minimum` it becomes tentative.
    public mutating func assess(stability value: Double, minimum: Double) {
        stability = value
        tentative = value < minimum
    }

    /// Records each changed step's stability (by step); the filed step's is the proposal's.
    public mutating func assess(stabilities: [LadderStep.Kind: Double], minimum: Double) {
        for index in ladder.indices {
            if let value = stabilities[ladder[index].kind], ladder[index].offered { ladder[index].stability = value }
        }
        if let step, let value = stabilities[step] { assess(stability: value, minimum: minimum) }
    }
}
