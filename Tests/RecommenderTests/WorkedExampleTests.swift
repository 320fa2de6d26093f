import Foundation
import Menus
import Ranking
import Recommender
import Testing

@Suite("DESIGN.md worked example")
struct WorkedExampleTests {
    /// Each pick by a different person on a different day (user-days = selections), 800 people.
    static let usage = MailExample.selections.mapValues { UsageCount(selections: $0, users: $0) }
    let proposal = Recommender().recommend(current: MailExample.menu, commands: MailExample.commands,
                                           usage: WorkedExampleTests.usage, menuUsers: 800)

    @Test func proposedLayoutIsExactlyTheDesignOne() {
        #expect(proposal.layout == layout([
            ["reply", "forward", "reply_all"],
            ["archive", "move", "flag"],
            ["copy_link", "delete"],
        ]))
        #expect(proposal.changed)
        #expect(proposal.unknownCommands.isEmpty)
    }

    @Test func printIsFlaggedWithShareAndInterval() throws {
        #expect(proposal.pruned.map(\.command) == ["print"])
        let flag = try #require(proposal.pruned.first)
        #expect(flag.selections == 20)
        #expect(String(format: "%.2f", flag.share * 100) == "0.20")
        #expect(String(format: "%.2f", flag.shareLow * 100) == "0.13")
        #expect(String(format: "%.2f", flag.shareHigh * 100) == "0.30")
        // Reach 20 of 800 people, 2.5%, upper bound below 5%.
        #expect(flag.users == 20 && flag.menuUsers == 800)
        let reach = try #require(flag.reach)
        #expect(String(format: "%.2f", reach.estimate * 100) == "2.50")
        #expect(reach.upper < 0.05)
        #expect(abs(proposal.evidence.displacedShare - 20.0 / 10140) < 1e-12)
    }

    @Test func evidenceReportsScanDepths() {
        // Current: reply 1, reply_all 2, forward 3, move 4, archive 5, flag 6, Share > copy_link 8,
        // Share > print 9, delete 8. Proposed: 1...8 in the proposed order, print pruned: it costs
        // the current layout's 10 items + 1.
        let currentCosts: [(Double, Double)] = [(4100, 1), (1250, 2), (1800, 3), (830, 4), (1010, 5), (440, 6),
                                                (300, 8), (20, 9), (390, 8)]
        let proposedCosts: [(Double, Double)] = [(4100, 1), (1800, 2), (1250, 3), (1010, 4), (830, 5), (440, 6),
                                                 (300, 7), (390, 8), (20, 11)]
        let current: Double = currentCosts.map { $0.0 * $0.1 }.reduce(0, +) / 10140
        let proposed: Double = proposedCosts.map { $0.0 * $0.1 }.reduce(0, +) / 10140
        #expect(proposal.evidence.totalSelections == 10140)
        #expect(abs(proposal.evidence.currentScanDepth - current) < 1e-12)
        #expect(abs(proposal.evidence.proposedScanDepth - proposed) < 1e-12)
        #expect(proposal.evidence.fallbackCost == 11)
        // The model's time: faster, and by less than a second per selection.
        #expect(proposal.evidence.secondsSavedPerSelection > 0 && proposal.evidence.secondsSavedPerSelection < 1)
    }

    @Test func acceptingTheProposalIsAFixedPoint() {
        let again = Recommender().recommend(current: ElementMenu(layout: proposal.layout),
                                            commands: MailExample.commands, usage: WorkedExampleTests.usage,
                                            menuUsers: 800)
        #expect(again.layout == proposal.layout)
        #expect(!again.changed)
        // print is no longer in the menu: its old selections are reported, not re-added.
        #expect(again.unknownCommands.map(\.command) == ["print"])
        #expect(again.pruned.isEmpty)
    }

    @Test func diffMarksEveryMove() {
        let diff = LayoutDiff(current: MailExample.menu.layout, proposal: proposal)
        #expect(diff.entry("reply")?.change == .unchanged)
        #expect(diff.entry("forward")?.change == .movedUp)
        #expect(diff.entry("reply_all")?.change == .movedDown)
        #expect(diff.entry("archive")?.change == .movedUp)
        #expect(diff.entry("move")?.change == .movedDown)
        #expect(diff.entry("flag")?.change == .unchanged)
        #expect(diff.entry("copy_link")?.change == .movedOutOfSubmenu)
        #expect(diff.entry("print")?.change == .pruned)
        #expect(diff.entry("delete")?.change == .regrouped)
        #expect(diff.entries.map(\.command) == MailExample.menu.layout.distinctCommands)
        #expect(diff.hasChanges)
    }
}
