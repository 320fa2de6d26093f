/// Limits lint checks a layout against (DESIGN.md, "Recommendation": 3 groups of at most 3 items).
public struct LintOptions: Hashable, Sendable {
    /// Most groups a menu should have (HIG-6).
    public var maxGroups: Int
    /// Most items a group should have (HIG-2; a submenu counts as one item).
    public var maxGroupSize: Int

    public init(maxGroups: Int = 3, maxGroupSize: Int = 3) {
        self.maxGroups = maxGroups
        self.maxGroupSize = maxGroupSize
    }

    /// Most items the top level of a menu should show: `maxGroups * maxGroupSize`.
    public var maxTopLevelItems: Int { maxGroups * maxGroupSize }
}
