import Foundation
import Menus
import Ranking
import Recommender
import Testing

@Suite("DESIGN.md worked example")
struct WorkedExampleTests {
    let proposal = Recommender().recommend(current: MailExample.menu, commands: MailExample.commands,
                                           selections: MailExample.selections)

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
    }

    @Test func evidenceReportsScanDepths() {
        // Current: reply 1, reply_all 2, forward 3, move 4, archive 5, flag 6, Share > copy_link 8,
        // Share > print 9, delete 8. Proposed: 1...8 in the proposed order.
        let currentCosts: [(Double, Double)] = [(4100, 1), (1250, 2), (1800, 3), (830, 4), (1010, 5), (440, 6),
                                                (300, 8), (20, 9), (390, 8)]
        let proposedCosts: [(Double, Double)] = [(4100, 1), (1800, 2), (1250, 3), (1010, 4), (830, 5), (440, 6),
                                                 (300, 7), (390, 8)]
        let current: Double = currentCosts.map { $0.0 * $0.1 }.reduce(0, +) / 10140
        let proposed: Double = proposedCosts.map { $0.0 * $0.1 }.reduce(0, +) / 10140
        let saved: Double = (current - proposed) * 0.4
        #expect(proposal.evidence.totalSelections == 10140)
        #expect(abs(proposal.evidence.currentScanDepth - current) < 1e-12)
        #expect(abs(proposal.evidence.proposedScanDepth - proposed) < 1e-12)
        #expect(abs(proposal.evidence.secondsSavedPerSelection - saved) < 1e-12)
    }

    @Test func acceptingTheProposalIsAFixedPoint() {
        let again = Recommender().recommend(current: ElementMenu(layout: proposal.layout),
                                            commands: MailExample.commands, selections: MailExample.selections)
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
