import Menus
import Recommender

extension Proposal {
    /// The ladder's step `kind`, if offered.
    func step(_ kind: LadderStep.Kind) -> LadderStep? {
        ladder.first { $0.kind == kind && $0.offered }
    }

    /// The proposal as it would read with its regroup step filed (nil when regroup is not
    /// offered): what the arrangement rules (shape, grouping, pins, the destructive tail) apply to.
    var regrouped: Proposal? {
        guard let step = step(.regroup), let layout = step.layout, let evidence = step.evidence else { return nil }
        var out = Proposal(layout: layout, pruned: pruned, unknownCommands: unknownCommands, unpinned: step.unpinned,
                           evidence: evidence, changed: true, submenus: step.submenus, untitledCategories: [])
        out.ladder = ladder
        out.step = .regroup
        return out
    }
}
