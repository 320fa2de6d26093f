public import Menus

/// How far people scan before they find what they pick, current against proposed layout.
///
/// The scan cost of a command is the number of items read to reach it: a top-level item at
/// position p (0-based, counted across all groups in reading order, separators not counted) costs
/// p + 1; an item at index j of a submenu costs the submenu's cost plus j + 1 (recursively for the
/// nested submenus a current layout may have). A command listed twice costs its first listing.
/// Expected scan depth = sum over the layout's commands of share x cost, with shares taken of all
/// the element type's selections; commands outside the layout (pruned from the proposal, unknown)
/// add nothing.
public struct ScanEvidence: Hashable, Sendable {
    /// The element type's selections the shares are taken of.
    public var totalSelections: Double
    public var currentScanDepth: Double
    public var proposedScanDepth: Double
    /// Seconds per item scanned used for the estimate.
    public var secondsPerItem: Double

    public init(totalSelections: Double, currentScanDepth: Double, proposedScanDepth: Double,
                secondsPerItem: Double)
    {
        self.totalSelections = totalSelections
        self.currentScanDepth = currentScanDepth
        self.proposedScanDepth = proposedScanDepth
        self.secondsPerItem = secondsPerItem
    }

    /// Items fewer to scan per selection (negative when the proposal is slower).
    public var itemsSavedPerSelection: Double { currentScanDepth - proposedScanDepth }

    /// Estimated time saved per selection, in seconds.
    public var secondsSavedPerSelection: Double { itemsSavedPerSelection * secondsPerItem }

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

    /// Expected scan depth of a layout for the given selections and total.
    public static func scanDepth(of layout: Layout, selections: [String: Double], total: Double) -> Double {
        guard total > 0 else { return 0 }
        let costs = scanCosts(of: layout)
        var depth = 0.0
        for id in costs.keys.sorted() {
            depth += max(0, selections[id] ?? 0) / total * Double(costs[id]!)
        }
        return depth
    }
}
