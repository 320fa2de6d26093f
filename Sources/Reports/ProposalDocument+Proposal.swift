public import Menus
public import Ranking
public import Recommender

extension ProposalDocument {
    /// The document of a recommender run for one element type.
    ///
    /// - `current`: the layout the proposal was made from.
    /// - `usage`: the ranking of the window (nil when the element type had no use at all); it gives
    ///   the totals, every command's selections, share, interval and reach.
    /// - `lint`: the findings for this element type's menu (the caller lints with usage).
    /// - `confidence`: of the intervals computed here for commands the ranking does not hold (listed
    ///   in the layout but never picked); use the ranker's.
    ///
    /// `commands` lists the ranking's commands and every command of the current layout, ordered by
    /// share descending, then selections descending, then id.
    /// - `userDays`: each command's user-days in the window (a command missing counts its selections).
    public init(elementType: String, current: Layout, proposal: Proposal, usage: ElementTypeUsage?,
                lint: [LintFinding], proposalID: Int? = nil, confidence: Double = 0.95,
                userDays: [String: Double] = [:])
    {
        let trials = usage?.effectiveSampleSize ?? 0
        let people = usage?.users ?? 0
        // Reach: people who picked the command out of the people who used the menu.
        func reach(_ users: Int) -> WilsonInterval {
            people > 0 ? WilsonInterval(successes: Double(min(users, people)), trials: Double(people), confidence: confidence)
                : WilsonInterval(estimate: 0, lower: 0, upper: 0)
        }
        func unused(_ id: String) -> CommandEvidence {
            let interval = WilsonInterval(successes: 0, trials: trials, confidence: confidence)
            return CommandEvidence(command: id, selections: 0, share: 0, shareLow: interval.lower,
                                   shareHigh: interval.upper, users: 0, userDays: 0, reachLow: reach(0).lower,
                                   reachHigh: reach(0).upper)
        }
        func evidence(_ usage: CommandUsage) -> CommandEvidence {
            let interval = reach(usage.users)
            return CommandEvidence(command: usage.command, selections: usage.selections, share: usage.share,
                                   shareLow: usage.shareInterval.lower, shareHigh: usage.shareInterval.upper,
                                   users: usage.users, userDays: userDays[usage.command], reachLow: interval.lower,
                                   reachHigh: interval.upper)
        }

        var byCommand: [String: CommandEvidence] = [:]
        for command in usage?.commands ?? [] { byCommand[command.command] = evidence(command) }
        for id in current.distinctCommands where byCommand[id] == nil { byCommand[id] = unused(id) }
        let commands = byCommand.values.sorted {
            if $0.share != $1.share { return $0.share > $1.share }
            if $0.selections != $1.selections { return $0.selections > $1.selections }
            return $0.command < $1.command
        }

        let prune = proposal.pruned.map { flag in
            let interval = flag.reach ?? reach(flag.users)
            return CommandEvidence(command: flag.command,
                                   selections: usage?.command(flag.command)?.selections ?? Int(flag.selections.rounded()),
                                   share: flag.share, shareLow: flag.shareLow, shareHigh: flag.shareHigh, users: flag.users,
                                   userDays: flag.userDays, reachLow: interval.lower, reachHigh: interval.upper)
        }
        let unknown = proposal.unknownCommands.map { command in
            if let known = byCommand[command.command] { return known }
            let total = proposal.evidence.totalSelections
            let interval = WilsonInterval(successes: command.selections, trials: total, confidence: confidence)
            return CommandEvidence(command: command.command, selections: Int(command.selections.rounded()),
                                   share: interval.estimate, shareLow: interval.lower, shareHigh: interval.upper,
                                   users: command.users, userDays: command.userDays,
                                   reachLow: reach(command.users).lower, reachHigh: reach(command.users).upper)
        }
        // HIG-3: a category the proposal needed as (part of) a submenu has no title in the manifest.
        let untitled = proposal.untitledCategories.map { category in
            LintFinding(rule: .hig3, severity: .warning, elementType: elementType,
                        path: ManifestPath.menu(elementType).appending("groups"),
                        message: "the proposal puts \(category.name) into a submenu, but it has no title: give the "
                            + "group a title ({\"title\": ..., \"items\": [...]}) or its commands a category with a title")
        }

        self.init(elementType: elementType,
                  selections: usage?.selections ?? Int(proposal.evidence.totalSelections.rounded()),
                  users: usage?.users ?? 0, dismissals: usage?.dismissals ?? 0, changed: proposal.changed,
                  proposalID: proposalID, current: current, proposed: proposal.layout, commands: commands,
                  prune: prune, lint: (lint + untitled).map(ReportFinding.init), unknownCommands: unknown,
                  scanDepthCurrent: proposal.evidence.currentScanDepth,
                  scanDepthProposed: proposal.evidence.proposedScanDepth,
                  timeSavedSeconds: proposal.evidence.secondsSavedPerSelection, unpinned: proposal.unpinned,
                  evidence: ProposalEvidence(proposal), step: proposal.changed ? proposal.step?.rawValue : nil,
                  ladder: LadderRung.rungs(of: proposal))
    }
}
