public import Menus

/// One rung of a proposal's ladder (DESIGN.md, "The proposal is the smallest change that delivers
/// the gain"): a layout that contains the changes of the rung before it and more.
public struct LadderStep: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable, Comparable {
        /// The most-used commands move to a top section at the head of the menu (a split menu), or
        /// right below the items they may not pass; everything else keeps its place, its group and
        /// its submenu.
        case promote
        /// Also the groups, and the items inside every group and submenu, ordered by use.
        case reorder
        /// The whole layout arranged to the allowed shape, each submenu one category.
        case regroup

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var kind: Kind
    /// The step's layout; nil when the step is not offered (`whyNot` says why).
    public var layout: Layout?
    /// Commands whose group or submenu the step changes, or that it prunes, in the current
    /// layout's reading order.
    public var moved: [String]
    /// Honest scan depth and model time of the step's layout.
    public var evidence: ScanEvidence?
    /// Share of resamples of people whose same step has the same top-level commands; nil when not
    /// computed (only changed steps of proposals that may be filed are).
    public var stability: Double?
    /// Why the step is not offered, or why it is not the one filed; nil for the filed step.
    public var whyNot: String?
    /// Pinned commands the step could not keep in their place (regroup only; the smaller steps
    /// move no pinned command).
    public var unpinned: [String] = []
    /// The step's submenus with the categories of their commands (regroup only: the smaller steps
    /// make no submenu).
    public var submenus: [ProposedSubmenu] = []

    public init(kind: Kind, layout: Layout?, moved: [String] = [], evidence: ScanEvidence? = nil,
                stability: Double? = nil, whyNot: String? = nil)
    {
        self.kind = kind
        self.layout = layout
        self.moved = moved
        self.evidence = evidence
        self.stability = stability
        self.whyNot = whyNot
    }

    public var offered: Bool { layout != nil }

    /// Model seconds saved per selection against the current layout (0 when not offered).
    public var gain: Double { evidence?.secondsSavedPerSelection ?? 0 }
}
