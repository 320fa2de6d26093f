public import Menus
import Recommender

/// One element type's entry of `menurank recommend --format json`, and what review output
/// renders: the usage, the current and proposed layouts, the evidence and the lint findings.
///
/// Its JSON (`jsonValue`) has exactly these members in this order:
/// `element_type`, `selections`, `users`, `dismissals`, `changed`, `proposal_id` (number or null),
/// `current` and `proposed` (`{"groups": [...]}` in the manifest's shape), `commands`, `prune` and
/// `unknown_commands` (each `[{"command", "selections", "share", "share_low", "share_high",
/// "users"}]`), `lint` (`[{"rule", "severity", "path", "message"}]`), `scan_depth`
/// (`{"current", "proposed"}`, honest: a pruned command costs `evidence.fallback_cost`), then
/// `time_saved_seconds` (the model's), `moves` (the diff, see `moves`), `unpinned` (pinned command
/// ids that could not keep their place) and `evidence` (see `ProposalEvidence`: `fallback_cost`,
/// `displaced_share`, `seconds` `{"current", "proposed"}`, `model` (its source and parameters),
/// `stability` (number or null), `tentative`, `submenus` `[{"title", "categories": [{"name",
/// "title"}]}]`, `untitled_categories`), `step` (the filed step of the ladder, or null) and `ladder`
/// (`LadderRung`: promote, reorder, regroup). Commands carry `user_days` and `reach_low`-`reach_high`.
/// Shares have 6 decimals, scan depths and seconds 4.
public struct ProposalDocument: Hashable, Sendable {
    public var elementType: String
    /// Selections of the element type's menu in the window.
    public var selections: Int
    /// Distinct users of the element type's menu in the window.
    public var users: Int
    /// Menus opened and closed without a pick in the window.
    public var dismissals: Int
    /// False when the proposed layout is the current one: nothing to file.
    public var changed: Bool
    /// The stored proposal, if one was filed.
    public var proposalID: Int?
    public var current: Layout
    public var proposed: Layout
    /// Every command with use in the window or in the current layout: selections descending,
    /// then command id.
    public var commands: [CommandEvidence]
    /// Commands flagged for pruning (left out of `proposed`), in the current layout's order.
    public var prune: [CommandEvidence]
    public var lint: [ReportFinding]
    /// Commands seen in telemetry that the current layout does not list.
    public var unknownCommands: [CommandEvidence]
    /// Expected items scanned per selection with the current layout.
    public var scanDepthCurrent: Double
    /// Expected items scanned per selection with the proposed layout.
    public var scanDepthProposed: Double
    /// Estimated seconds saved per selection (negative when the proposal is slower).
    public var timeSavedSeconds: Double
    /// Pinned commands that could not keep their place in the proposal (no room in the shape).
    public var unpinned: [String]
    /// Displaced share, model time, stability, submenus and their categories.
    public var evidence: ProposalEvidence
    /// The filed step of the ladder (`promote`, `reorder`, `regroup`); nil when nothing changes.
    public var step: String?
    /// The ladder: every step with its layout, moves, evidence and why it is not the one filed.
    public var ladder: [LadderRung]

    public init(elementType: String, selections: Int, users: Int, dismissals: Int, changed: Bool, proposalID: Int?,
                current: Layout, proposed: Layout, commands: [CommandEvidence], prune: [CommandEvidence],
                lint: [ReportFinding], unknownCommands: [CommandEvidence], scanDepthCurrent: Double,
                scanDepthProposed: Double, timeSavedSeconds: Double, unpinned: [String] = [],
                evidence: ProposalEvidence = ProposalEvidence(fallbackCost: 0, displacedShare: 0, secondsCurrent: 0,
                                                              secondsProposed: 0),
                step: String? = nil, ladder: [LadderRung] = [])
    {
        self.evidence = evidence
        self.step = step
        self.ladder = ladder
        self.elementType = elementType
        self.selections = selections
        self.users = users
        self.dismissals = dismissals
        self.changed = changed
        self.proposalID = proposalID
        self.current = current
        self.proposed = proposed
        self.commands = commands
        self.prune = prune
        self.lint = lint
        self.unknownCommands = unknownCommands
        self.scanDepthCurrent = ReportNumber.rounded(scanDepthCurrent, decimals: ReportNumber.scanDepthDecimals)
        self.scanDepthProposed = ReportNumber.rounded(scanDepthProposed, decimals: ReportNumber.scanDepthDecimals)
        self.timeSavedSeconds = ReportNumber.rounded(timeSavedSeconds, decimals: ReportNumber.secondsDecimals)
        self.unpinned = unpinned
    }

    /// The diff, command by command: the commands of the current layout in its reading order, then
    /// the commands only in the proposal. A command missing from the proposal is `pruned` when it
    /// is in `prune`, else `removed`. Derived from `current`, `proposed` and `prune`, so it is
    /// written to JSON but never read back.
    public var moves: [ItemMove] {
        let diff = LayoutDiff(current: current, proposed: proposed, pruned: Set(prune.map { $0.command }))
        let before = ItemPosition.positions(in: current)
        let after = ItemPosition.positions(in: proposed)
        return diff.entries.map {
            ItemMove(command: $0.command, change: $0.change, from: before[$0.command], to: after[$0.command])
        }
    }

    /// Commands that change place or leave the menu (what a proposal list shows as "changed items").
    public var changedItemCount: Int { moves.filter { $0.isChange }.count }

    /// The use of one command, if the document has it.
    public func evidence(for command: String) -> CommandEvidence? {
        commands.first { $0.command == command }
    }
}
