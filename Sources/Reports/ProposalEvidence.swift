public import Recommender

/// What a proposal's evidence says beyond the layouts (invariants 6 and 9): the honest scan depth's
/// fallback cost, the displaced share, the menu-performance model's expected seconds with its
/// parameters, the bootstrap stability, and each submenu's categories. Rounded when made, so a
/// document written as JSON and read back is equal to itself.
public struct ProposalEvidence: Hashable, Sendable {
    /// Items a pruned command costs in the scan depths.
    public var fallbackCost: Double
    /// Share of the element type's selections whose command the proposal prunes.
    public var displacedShare: Double
    /// Expected seconds per selection by the model, current and proposed layout.
    public var secondsCurrent: Double
    public var secondsProposed: Double
    public var model: MenuTimeModel
    /// Stability over resamples of people (nil when not computed: only proposals that would be
    /// filed are).
    public var stability: Double?
    /// Below the minimum stability: reported, not filed.
    public var tentative: Bool
    public var submenus: [ProposedSubmenu]
    /// Categories a submenu needed that have no title in the manifest (HIG-3).
    public var untitledCategories: [CategoryOrigin]

    public init(fallbackCost: Double, displacedShare: Double, secondsCurrent: Double, secondsProposed: Double,
                model: MenuTimeModel = MenuTimeModel(), stability: Double? = nil, tentative: Bool = false,
                submenus: [ProposedSubmenu] = [], untitledCategories: [CategoryOrigin] = [])
    {
        self.fallbackCost = ReportNumber.rounded(fallbackCost, decimals: ReportNumber.scanDepthDecimals)
        self.displacedShare = ReportNumber.rounded(displacedShare, decimals: ReportNumber.shareDecimals)
        self.secondsCurrent = ReportNumber.rounded(secondsCurrent, decimals: ReportNumber.secondsDecimals)
        self.secondsProposed = ReportNumber.rounded(secondsProposed, decimals: ReportNumber.secondsDecimals)
        self.model = model
        self.stability = stability.map { ReportNumber.rounded($0, decimals: ReportNumber.shareDecimals) }
        self.tentative = tentative
        self.submenus = submenus
        self.untitledCategories = untitledCategories
    }

    /// The evidence of a recommender run.
    public init(_ proposal: Proposal) {
        self.init(fallbackCost: proposal.evidence.fallbackCost, displacedShare: proposal.evidence.displacedShare,
                  secondsCurrent: proposal.evidence.currentSeconds, secondsProposed: proposal.evidence.proposedSeconds,
                  model: proposal.evidence.model, stability: proposal.stability, tentative: proposal.tentative,
                  submenus: proposal.submenus, untitledCategories: proposal.untitledCategories)
    }

    /// Sentences for people, the same in every output format.
    public var sentences: [String] {
        var out: [String] = []
        out.append("\(ReportNumber.percent(displacedShare)) of selections displaced by pruning "
            + "(a pruned command counts \(ReportNumber.decimal(fallbackCost, decimals: 1, trimmingZeros: true)) items scanned)")
        let saved = secondsCurrent - secondsProposed
        out.append("expected selection time \(ReportNumber.decimal(secondsCurrent, decimals: 2)) s → "
            + "\(ReportNumber.decimal(secondsProposed, decimals: 2)) s ("
            + (saved >= 0 ? "\(ReportNumber.decimal(saved, decimals: 2)) s faster" : "\(ReportNumber.decimal(-saved, decimals: 2)) s slower")
            + "; model: \(MenuTimeModel.source): search \(model.searchPerItem) s/item, Hick-Hyman \(model.hickPerBit) s/bit, "
            + "Fitts \(model.fittsPerBit) s/bit, submenu delay \(model.submenuDelay) s)")
        if let stability {
            out.append("stability \(ReportNumber.percent(stability, decimals: 1)) of resamples of people give the same top-level commands"
                + (tentative ? " (tentative: below the minimum, not filed)" : ""))
        }
        for submenu in submenus {
            let names = submenu.categories.map { $0.title == nil ? "\($0.name) (untitled)" : $0.name }
            out.append("submenu \"\(submenu.title)\" holds \(names.joined(separator: ", "))")
        }
        return out
    }
}
