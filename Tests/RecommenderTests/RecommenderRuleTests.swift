import Menus
import Recommender
import Testing

@Suite("Recommendation rules")
struct RecommenderRuleTests {
    private func titled(_ ids: [String], _ change: (inout CommandInfo) -> Void = { _ in }) -> [String: CommandInfo] {
        var out: [String: CommandInfo] = [:]
        for id in ids {
            var info = CommandInfo(title: id.uppercased())
            change(&info)
            out[id] = info
        }
        return out
    }

    private func recommend(_ groups: [[String]], _ selections: [String: Int], commands: [String: CommandInfo]? = nil,
                           options: Recommender.Options = .init()) -> Proposal
    {
        let current = layout(groups)
        return Recommender(options: options).recommend(
            current: ElementMenu(layout: current), commands: commands ?? titled(current.distinctCommands),
            selections: selections)
    }

    @Test func noiseNeverSwaps() {
        let proposal = recommend([["a", "b"]], ["a": 99, "b": 101])
        #expect(proposal.layout == layout([["a", "b"]]))
        #expect(!proposal.changed)
    }

    /// With no use, the promote and reorder steps move no command: nothing passes anything, so
    /// the promote step does not pack the head of the menu into a section (this menu once showed
    /// "1 move" on both). The regroup step may still move separators to reach the allowed shape
    /// (a destructive command in the last group), and is not filed: it saves no time.
    @Test func aMenuWithoutUseIsNotPackedIntoASection() {
        var commands = titled(["new", "search", "add", "copy", "block"])
        commands["block"]?.destructive = true
        let current = layout([["new", "search"], ["add", "copy"], ["block"]])
        let proposal = recommend([["new", "search"], ["add", "copy"], ["block"]], [:], commands: commands)
        #expect(!proposal.changed)
        #expect(proposal.step == nil)
        for step in proposal.ladder where step.kind != .regroup {
            #expect(step.moved == [], "\(step.kind) moves \(step.moved)")
            #expect(step.layout == current, "\(step.kind) changes the menu")
        }
    }

    @Test func evidenceSwaps() {
        let proposal = recommend([["a", "b"]], ["a": 1250, "b": 1800])
        #expect(proposal.layout == layout([["b", "a"]]))
        #expect(proposal.changed)
    }

    @Test func unusedCommandIsNotPrunedOnThinData() {
        let proposal = recommend([["a", "b", "c"]], ["a": 50, "b": 50])
        #expect(proposal.pruned.isEmpty)
        #expect(proposal.layout.commandsInOrder.sorted() == ["a", "b", "c"])
    }

    @Test func unusedCommandIsPrunedOnEnoughData() throws {
        let proposal = recommend([["a", "b", "c"]], ["a": 5000, "b": 5000, "c": 0])
        let flag = try #require(proposal.pruned.first)
        #expect(proposal.pruned.count == 1)
        #expect(flag.command == "c" && flag.share == 0 && flag.shareLow == 0)
        #expect(flag.shareHigh < 0.001)
        #expect(proposal.layout == layout([["a", "b"]]))
    }

    @Test func pruneThresholdIsRespected() {
        // 40 of 10,000: share 0.4%, upper bound about 0.54%: flagged at 1%, kept at 0.5%.
        let counts = ["a": 5000, "b": 4960, "c": 40]
        #expect(recommend([["a", "b", "c"]], counts).pruned.map(\.command) == ["c"])
        let strict = Recommender.Options(pruneShare: 0.005)
        #expect(recommend([["a", "b", "c"]], counts, options: strict).pruned.isEmpty)
    }

    @Test func keepAndPinnedAreNeverPruned() {
        let commands = titled(["a", "b", "k", "p"]) { info in
            if info.title == "K" { info.keep = true }
            if info.title == "P" { info.pinned = true }
        }
        let proposal = recommend([["a", "b", "k", "p"]], ["a": 5000, "b": 5000], commands: commands,
                                 options: .init(maxGroupSize: 4))
        #expect(proposal.pruned.isEmpty)
        #expect(proposal.layout == layout([["a", "b", "k", "p"]]))
    }

    @Test func pinnedKeepsItsPlace() {
        let commands = titled(["a", "p", "b"]) { info in info.pinned = info.title == "P" }
        let proposal = recommend([["a", "p", "b"]], ["a": 10, "p": 0, "b": 1000], commands: commands)
        #expect(proposal.regrouped?.layout == layout([["b", "p", "a"]]))
        #expect(proposal.unpinned.isEmpty)
    }

    @Test func destructiveComesLast() {
        let commands = titled(["del", "a", "b"]) { info in info.destructive = info.title == "DEL" }
        let proposal = recommend([["del", "a", "b"]], ["del": 5000, "a": 100, "b": 50], commands: commands)
        #expect(proposal.regrouped?.layout == layout([["a", "b", "del"]]))
    }

    @Test func destructiveOpensItsOwnGroupWhenTheLastIsFull() {
        let commands = titled(["x", "a", "b", "c", "d", "e", "f"]) { info in info.destructive = info.title == "X" }
        let counts = ["x": 100, "a": 900, "b": 800, "c": 700, "d": 600, "e": 500, "f": 400]
        let proposal = recommend([["a", "b", "c", "x"], ["d", "e", "f"]], counts, commands: commands)
        #expect(proposal.layout == layout([["a", "b", "c"], ["d", "e", "f"], ["x"]]))
    }

    @Test func usageGroupingReadsInOrderOfUse() {
        let counts = ["a": 100, "b": 200, "c": 300, "d": 400, "e": 500]
        let proposal = recommend([["a"], ["b"], ["c"], ["d"], ["e"]], counts, options: .init(grouping: .usage))
        #expect(proposal.regrouped?.layout == layout([["e", "d", "c"], ["b", "a"]]))
        let semantic = recommend([["a"], ["b"], ["c"], ["d"], ["e"]], counts)
        // Semantic: five one-command groups, the two least used merged into the third.
        #expect(semantic.regrouped?.layout == layout([["e"], ["d"], ["c", "b", "a"]]))
    }

    @Test func categoriesGroupAcrossTheCurrentLayout() {
        let commands = titled(["a", "b", "c", "d"]) { info in
            if info.title == "B" || info.title == "D" { info.category = "share" }
        }
        let proposal = recommend([["a", "b"], ["c", "d"]], ["a": 900, "b": 800, "c": 700, "d": 600], commands: commands)
        // Three categories: group 0 (a), "share" (b, d), group 1 (c), ordered by their most-used.
        #expect(proposal.regrouped?.layout == layout([["a"], ["b", "d"], ["c"]]))
    }

    /// Invariant 3: no step makes a catch-all submenu. Five untitled commands for one group of
    /// three would need a submenu of commands without a common title: regroup is not offered and
    /// says why; the smaller steps keep the menu's own containers.
    @Test func noCatchAllSubmenuIsEverMade() throws {
        let counts = ["a": 500, "b": 400, "c": 300, "d": 200, "e": 100]
        let proposal = recommend([["a", "b", "c", "d", "e"]], counts, options: .init(maxGroups: 1))
        #expect(proposal.regrouped == nil)
        let regroup = try #require(proposal.ladder.first { $0.kind == .regroup })
        #expect(regroup.whyNot?.contains("title") == true || regroup.whyNot?.contains("mixes") == true,
                "\(regroup.whyNot ?? "")")
        for step in proposal.ladder {
            let submenus = step.layout?.groups.joined().filter { if case .submenu = $0 { true } else { false } } ?? []
            #expect(submenus.isEmpty, "\(step.kind) makes a submenu")
        }
    }

    @Test func submenuTakesTheCategoryOrTheCurrentTitleAndNeverAGenericOne() throws {
        let counts = ["a": 500, "b": 400, "c": 300, "d": 200, "e": 100]
        let shared = titled(["a", "b", "c", "d", "e"]) { info in
            if ["C", "D", "E"].contains(info.title) { info.category = "Share" }
        }
        let byCategory = recommend([["a", "b", "c", "d", "e"]], counts, commands: shared, options: .init(maxGroups: 1))
        #expect(byCategory.regrouped?.layout.compact == "[a b {Share: c d e}]")

        let current = Layout(groups: [[.command("a"), .command("b"),
                                       .submenu(Submenu(title: "Export", items: [.command("c"), .command("d")]))]])
        let byTitle = Recommender(options: .init(maxGroups: 1, maxGroupSize: 2)).recommend(
            current: ElementMenu(layout: current), commands: titled(["a", "b", "c", "d"]),
            selections: ["a": 500, "b": 400, "c": 300, "d": 200])
        // b stands beside the Export submenu; putting it into Export would make a submenu of two
        // origins, so regroup is not offered for one group of two, and reorder is filed.
        #expect(byTitle.regrouped == nil)
        #expect(byTitle.step == .reorder && byTitle.layout.compact == "[a {Export: c d} b]")

        let generic = Layout(groups: [[.command("a"),
                                       .submenu(Submenu(title: "More", items: [.command("c"), .command("d")]))]])
        let noMore = Recommender(options: .init(maxGroups: 1, maxGroupSize: 2)).recommend(
            current: ElementMenu(layout: generic), commands: titled(["a", "c", "d"]) { $0.category = "other" },
            selections: ["a": 500, "c": 300, "d": 200])
        // A generic title is no category title: regroup would need a catch-all, so it is not offered.
        #expect(noMore.regrouped == nil)

        // Every title lint calls generic is avoided too, whatever its case or ellipsis.
        for title in ["Options…", "More options", "Actions", "Ещё"] {
            let vague = Layout(groups: [[.command("a"),
                                         .submenu(Submenu(title: title, items: [.command("c"), .command("d")]))]])
            let named = Recommender(options: .init(maxGroups: 1, maxGroupSize: 2)).recommend(
                current: ElementMenu(layout: vague), commands: titled(["a", "c", "d"]),
                selections: ["a": 500, "c": 300, "d": 200])
            #expect(named.regrouped == nil, "\(title)")
        }
    }

    /// A pinned command that loses its place in the first arrangement stays reported as unpinned
    /// after the settle rounds (which see it pinned at its new place). Found by review fuzzing.
    @Test func aPinLostInTheFirstRoundStaysReported() {
        let current = Layout(groups: [
            [.submenu(Submenu(title: "Stuff", items: [.command("c0"), .command("c1"), .command("c2")])),
             .command("c3"), .command("c4"), .command("c5")],
            [.command("c6"), .command("c7"),
             .submenu(Submenu(title: "Sub", items: [
                 .submenu(Submenu(title: "Actions", items: [.command("c0"), .command("c1"), .command("c2")])),
                 .command("c3")]))],
            [.command("c4"), .command("c5")],
        ])
        let commands = titled(["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"]) { info in
            if info.title == "C0" || info.title == "C1" { info.pinned = true }
            if info.title == "C5" { info.pinned = true; info.destructive = true }
        }
        let selections = ["c0": 2020, "c1": 440, "c2": 1812, "c3": 461, "c4": 0, "c5": 2876, "c6": 336, "c7": 995]
        let options = Recommender.Options(maxGroups: 2, maxGroupSize: 2, grouping: .usage)
        let menu = ElementMenu(layout: current)
        let proposal = Recommender(options: options).recommend(current: menu, commands: commands, selections: selections)
        let checker = InvariantChecker(menu: menu, commands: commands, selections: selections, options: options)
        #expect(proposal.regrouped.map { checker.violations(of: $0) } ?? [] == [])
        #expect(checker.ladderViolations(of: proposal) == [])
    }

    @Test func nestedSubmenusAndDuplicatesAreFlattened() {
        let current = Layout(groups: [[
            .command("a"),
            .submenu(Submenu(title: "Outer", items: [.command("b"), .submenu(Submenu(title: "Inner", items: [.command("a"), .command("c")]))])),
        ]])
        let proposal = Recommender(options: .init(maxGroupSize: 4)).recommend(
            current: ElementMenu(layout: current), commands: titled(["a", "b", "c"]),
            selections: ["a": 30, "b": 20, "c": 10])
        // Flattened: one listing of a, no nested submenu. a's category is its group, b's and c's
        // the outer submenu (DESIGN.md, "Grouping"): a top-level command does not join the
        // submenu beside it, so the two categories make two groups.
        #expect(proposal.regrouped?.layout == layout([["a"], ["b", "c"]]))
    }

    @Test func unknownCommandsAreReportedNotInvented() {
        let proposal = recommend([["a", "b"]], ["a": 100, "b": 50, "ghost": 70, "zero": 0])
        #expect(proposal.unknownCommands == [UnknownCommand(command: "ghost", selections: 70, users: 0)])
        #expect(!proposal.layout.commandsInOrder.contains("ghost"))
        // Shares are of all the element type's selections, unknown commands included.
        #expect(proposal.evidence.totalSelections == 220)
    }

    @Test func reachAndDecayedCountsFlowThroughUsageCounts() throws {
        let usage = ["a": UsageCount(selections: 5000.5, users: 40), "b": UsageCount(selections: 4999, users: 38),
                     "c": UsageCount(selections: 1.5, users: 1)]
        let proposal = Recommender().recommend(current: ElementMenu(layout: layout([["a", "b", "c"]])),
                                               commands: titled(["a", "b", "c"]), usage: usage, menuUsers: 0)
        let flag = try #require(proposal.pruned.first)
        #expect(flag.command == "c" && flag.users == 1 && flag.selections == 1.5)
    }

    @Test func emptyLayoutGivesEmptyProposal() {
        let proposal = recommend([], ["a": 3])
        #expect(proposal.layout.groups.isEmpty)
        #expect(!proposal.changed)
        #expect(proposal.unknownCommands.map(\.command) == ["a"])
    }
}
