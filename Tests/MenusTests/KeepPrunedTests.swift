import Menus
import Testing

/// `Layout.keepingPruned`: `proposals accept --keep-pruned TITLE` keeps flagged commands in a titled
/// submenu instead of dropping them.
@Suite struct KeepPrunedTests {
    static func layout(_ groups: [[MenuItem]]) -> Layout { Layout(groups: groups) }
    static func c(_ id: String) -> MenuItem { .command(id) }

    @Test func designExampleKeepsPrintBeforeDelete() throws {
        // DESIGN.md's proposal: print is flagged, delete is destructive and stays last.
        let proposed = Self.layout([[Self.c("reply"), Self.c("forward"), Self.c("reply_all")],
                                    [Self.c("archive"), Self.c("move"), Self.c("flag")],
                                    [Self.c("copy_link"), Self.c("delete")]])
        let kept = try proposed.keepingPruned(["print"], title: "Print & Export", destructive: ["delete"])
        #expect(kept.groups.count == 3)
        #expect(kept.groups[2] == [Self.c("copy_link"), .submenu(Submenu(title: "Print & Export", items: [Self.c("print")])),
                                   Self.c("delete")])
        #expect(kept.groups[0...1] == proposed.groups[0...1])
        // Nothing lost: every command of the proposal plus the kept one, each once.
        #expect(Set(kept.commandsInOrder) == Set(proposed.commandsInOrder).union(["print"]))
        #expect(kept.commandsInOrder.count == proposed.commandsInOrder.count + 1)
    }

    @Test func aFullLastGroupGetsAGroupOfItsOwnBeforeDestructiveOnes() throws {
        let roomy = Self.layout([[Self.c("a"), Self.c("b"), Self.c("c")], [Self.c("delete")]])
        let sub = MenuItem.submenu(Submenu(title: "Archive Tools", items: [Self.c("x"), Self.c("y")]))
        #expect(try roomy.keepingPruned(["x", "y"], title: "Archive Tools", destructive: ["delete"]).groups
            == [[Self.c("a"), Self.c("b"), Self.c("c")], [sub, Self.c("delete")]])
        let proposed = Self.layout([[Self.c("a"), Self.c("b"), Self.c("c")], [Self.c("d"), Self.c("e"), Self.c("delete")]])
        let kept = try proposed.keepingPruned(["x", "y"], title: "Archive Tools", destructive: ["delete"])
        #expect(kept.groups == [[Self.c("a"), Self.c("b"), Self.c("c")], [sub],
                                [Self.c("d"), Self.c("e"), Self.c("delete")]])
        let full = Self.layout([[Self.c("a"), Self.c("b"), Self.c("c")], [Self.c("d"), Self.c("e"), Self.c("f")]])
        #expect(try full.keepingPruned(["x"], title: "Sharing", destructive: []).groups.last
            == [.submenu(Submenu(title: "Sharing", items: [Self.c("x")]))])
    }

    @Test func refusals() throws {
        let full = Self.layout([[Self.c("a"), Self.c("b"), Self.c("c")], [Self.c("d"), Self.c("e"), Self.c("f")],
                                [Self.c("g"), Self.c("h"), Self.c("i")]])
        #expect(throws: Layout.KeepPrunedError.self) { try full.keepingPruned(["x"], title: "Sharing", destructive: []) }
        let roomy = Self.layout([[Self.c("a")]])
        for title in ["More", "other…", "  ", "", String(repeating: "t", count: 65), "Tab\tTitle"] {
            #expect(throws: Layout.KeepPrunedError.self, "\(title)") {
                try roomy.keepingPruned(["x"], title: title, destructive: [])
            }
        }
        let titled = Self.layout([[Self.c("a"), .submenu(Submenu(title: "Share", items: [Self.c("b")]))]])
        #expect(throws: Layout.KeepPrunedError.self) { try titled.keepingPruned(["x"], title: "Share", destructive: []) }
        // Nothing to keep (or already present): the layout as it is.
        #expect(try roomy.keepingPruned([], title: "More", destructive: []) == roomy)
        #expect(try roomy.keepingPruned(["a"], title: "Sharing", destructive: []) == roomy)
    }
}
