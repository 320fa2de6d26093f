import Menus
import Recommender
import Testing

@Suite("Layout diff")
struct LayoutDiffTests {
    @Test func positionsAndChanges() throws {
        let current = Layout(groups: [
            [.command("a"), .command("b")],
            [.submenu(Submenu(title: "Share", items: [.command("c"), .command("d")])), .command("e")],
        ])
        let proposed = Layout(groups: [
            [.command("b"), .command("a")],
            [.command("c"), .submenu(Submenu(title: "E, F", items: [.command("e"), .command("f")]))],
        ])
        let diff = LayoutDiff(current: current, proposed: proposed, pruned: ["d"])
        #expect(diff.entries.map(\.command) == ["a", "b", "c", "d", "e", "f"])
        #expect(diff.entry("a")?.change == .movedDown)
        #expect(diff.entry("b")?.change == .movedUp)
        #expect(diff.entry("c")?.change == .movedOutOfSubmenu)
        #expect(diff.entry("d")?.change == .pruned)
        #expect(diff.entry("e")?.change == .movedIntoSubmenu)
        #expect(diff.entry("f")?.change == .added)
        let c = try #require(diff.entry("c"))
        #expect(c.old == LayoutPosition(group: 1, index: 0, submenus: ["Share"], submenuIndex: 0, scanCost: 4))
        #expect(c.new == LayoutPosition(group: 1, index: 0, submenus: [], submenuIndex: nil, scanCost: 3))
        let e = try #require(diff.entry("e"))
        #expect(e.new == LayoutPosition(group: 1, index: 1, submenus: ["E, F"], submenuIndex: 0, scanCost: 5))
        #expect(diff.hasChanges)
    }

    @Test func regroupedAndRemoved() {
        let diff = LayoutDiff(current: layout([["a", "b"], ["c"]]), proposed: layout([["a"], ["b", "c"]]))
        #expect(diff.entry("a")?.change == .unchanged)
        #expect(diff.entry("b")?.change == .regrouped)
        // As many items to scan as before, but another place: a separator moved around it.
        #expect(diff.entry("c")?.change == .regrouped)
        let removed = LayoutDiff(current: layout([["a", "b"]]), proposed: layout([["a"]]))
        #expect(removed.entry("b")?.change == .removed)
    }

    @Test func identicalLayoutsHaveNoChanges() {
        let same = layout([["a", "b"], ["c"]])
        #expect(!LayoutDiff(current: same, proposed: same).hasChanges)
    }
}
