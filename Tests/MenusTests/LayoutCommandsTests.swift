import Menus
import Testing

/// `Layout.distinctCommands`: the commands in order of first appearance (submenus expanded, depth
/// first), each once, for short menus (compared one by one) and long ones (with a set) alike.
@Suite struct LayoutCommandsTests {
    /// The definition, as plainly as it can be written.
    static func reference(_ layout: Layout) -> [String] {
        var seen = Set<String>()
        return layout.commandsInOrder.filter { seen.insert($0).inserted }
    }

    @Test func aShortMenuListsEachCommandOnceInReadingOrder() {
        let layout = Layout(groups: [
            [.command("cut"), .command("copy"), .submenu(Submenu(title: "More", items: [.command("paste"), .command("cut")]))],
            [.command("copy"), .command("delete")],
        ])
        #expect(layout.distinctCommands == ["cut", "copy", "paste", "delete"])
        #expect(Layout(groups: []).distinctCommands.isEmpty)
    }

    @Test func menusOnBothSidesOfTheLinearLimitGiveTheReference() {
        // Listings from 0 to 80, with repeats (every fifth listing repeats an earlier command) and
        // names long enough to live outside the string's inline storage.
        for listings in [0, 1, 5, 31, 32, 33, 40, 80] {
            var items: [MenuItem] = []
            for index in 0..<listings {
                let name = index % 5 == 4 ? "command.with.a.long.name.\(index / 3)" : "command.with.a.long.name.\(index)"
                items.append(index % 7 == 6 ? .submenu(Submenu(title: "S\(index)", items: [.command(name)])) : .command(name))
            }
            let layout = Layout(groups: [Array(items.prefix(listings / 2)), Array(items.dropFirst(listings / 2))])
            let distinct = layout.distinctCommands
            #expect(distinct == Self.reference(layout), "\(listings) listings")
            #expect(Set(distinct).count == distinct.count)
        }
    }
}
