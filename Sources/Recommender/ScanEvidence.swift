public import Menus

/// The evidence of a proposal (invariant 9): how far people scan and how long a selection takes,
/// current against proposed layout, every command of the current layout counted.
///
/// The scan cost of a command is the number of items read to reach it: a top-level item at
/// position p (0-based, counted across all groups in reading order, separators not counted) costs
/// p + 1; an item at index j of a submenu costs the submenu's cost plus j + 1 (recursively for the
/// nested submenus a current layout may have). A command listed twice costs its first listing. A
/// command of the current layout left out of the proposal (pruned) costs `fallbackCost`: looked
/// through the whole menu without finding it. Expected scan depth = sum over the current layout's
/// commands of share x cost, shares taken of all the element type's selections (commands outside
/// the current layout, seen only in telemetry, add nothing to either side).
///
/// The expected selection time is `MenuTimeModel`'s, weighted the same way.
public struct ScanEvidence: Hashable, Sendable {
    /// The element type's selections the shares are taken of.
    public var totalSelections: Double
    public var currentScanDepth: Double
    public var proposedScanDepth: Double
    /// Items a pruned command costs (`Options.fallbackCost`, by default the current layout's items + 1).
    public var fallbackCost: Double
    /// Share of the element type's selections whose command the proposal prunes.
    public var displacedShare: Double
    /// Expected seconds per selection by `model`, current and proposed layout.
    public var currentSeconds: Double
    public var proposedSeconds: Double
    public var model: MenuTimeModel

    public init(totalSelections: Double, currentScanDepth: Double, proposedScanDepth: Double, fallbackCost: Double,
                displacedShare: Double, currentSeconds: Double, proposedSeconds: Double,
                model: MenuTimeModel = MenuTimeModel())
    {
        self.totalSelections = totalSelections
        self.currentScanDepth = currentScanDepth
        self.proposedScanDepth = proposedScanDepth
        self.fallbackCost = fallbackCost
        self.displacedShare = displacedShare
        self.currentSeconds = currentSeconds
        self.proposedSeconds = proposedSeconds
        self.model = model
    }

    /// Items fewer to scan per selection (negative when the proposal is slower).
    public var itemsSavedPerSelection: Double { currentScanDepth - proposedScanDepth }

    /// Model seconds saved per selection (negative when the proposal is slower).
    public var secondsSavedPerSelection: Double { currentSeconds - proposedSeconds }

    /// The number of items of a layout: every entry of every group and submenu, at any depth.
    public static func itemCount(of layout: Layout) -> Int {
        func count(_ items: [MenuItem]) -> Int {
            items.reduce(0) { total, item in
                switch item {
                case .command: total + 1
                case let .submenu(submenu): total + 1 + count(submenu.items)
                }
            }
        }
        return layout.groups.reduce(0) { $0 + count($1) }
    }

    /// The scan cost of every command of a layout (first listing).
    public static func scanCosts(of layout: Layout) -> [String: Int] {
        var costs: [String: Int] = [:]
        func visit(_ items: [MenuItem], base: Int) {
            for (index, item) in items.enumerated() {
                let cost = base + index + 1
                switch item {
                case let .command(id):
                    if costs[id] == nil { costs[id] = cost }
                case let .submenu(submenu):
                    visit(submenu.items, base: cost)
                }
            }
        }
        visit(layout.groups.flatMap { $0 }, base: 0)
        return costs
    }

    /// Expected scan depth over `commands` of a layout; a command missing from it costs `fallback`.
    public static func scanDepth(of layout: Layout, commands: [String], selections: [String: Double], total: Double,
                                 fallback: Double) -> Double
    {
        guard total > 0 else { return 0 }
        let costs = scanCosts(of: layout)
        var depth = 0.0
        for id in commands.sorted() {
            depth += max(0, selections[id] ?? 0) / total * (costs[id].map(Double.init) ?? fallback)
        }
        return depth
    }

    /// Expected scan depth of a layout's own commands.
    public static func scanDepth(of layout: Layout, selections: [String: Double], total: Double) -> Double {
        scanDepth(of: layout, commands: layout.distinctCommands, selections: selections, total: total, fallback: 0)
    }
}
