import Menus
import Ranking
import Recommender
import Testing

/// The promote step's section (DESIGN.md, "The proposal is the smallest change that delivers the
/// gain", step 1): filled by use per place, near-ties of the top level allowed, promotions out of
/// submenus only when resamples would repeat them, and never above a unit it does not beat.
@Suite("The promote step's section")
struct PromoteStepTests {
    /// `count(i)` picks by each of the people p0, p1, ... p(n - 1), every pick on a day of its own.
    static func picks(_ people: Int, _ count: (Int) -> Int) -> [(String, Int)] {
        (0..<people).map { ("p\($0)", count($0)) }
    }

    static func promoted(_ proposal: Proposal) -> Layout? {
        proposal.ladder.first { $0.kind == .promote }?.layout
    }

    static func titled(_ ids: [String]) -> [String: CommandInfo] {
        Dictionary(uniqueKeysWithValues: ids.map { ($0, CommandInfo(title: $0)) })
    }

    /// Cut, Copy and Paste move as one unit of three places, so a command used more than a third
    /// of their use goes above them, though the three together are used more.
    @Test func aUnitOfThreeRanksByItsUsePerPlace() throws {
        var commands = Self.titled(["idle", "busy"])
        commands["cut"] = CommandInfo(title: "Cut")
        commands["copy"] = CommandInfo(title: "Copy")
        commands["paste"] = CommandInfo(title: "Paste")
        let menu = ElementMenu(layout: Layout(groups: [
            [.command("cut"), .command("copy"), .command("paste")], [.command("idle")], [.command("busy")],
        ]))
        let usage = StabilityTests.usage([
            "cut": Self.picks(100) { 3 + $0 % 5 }, "copy": Self.picks(100) { 3 + $0 % 5 },
            "paste": Self.picks(100) { 3 + $0 % 5 }, "busy": Self.picks(100) { 8 + $0 % 5 },
            "idle": Self.picks(5) { _ in 1 },
        ])
        // The three together (1,500 picks) are used more than busy (1,000), per place less (500).
        let proposal = Recommender().recommend(current: menu, commands: commands, usage: usage, menuUsers: 100)
        let layout = try #require(Self.promoted(proposal))
        #expect(layout.groups.first == [.command("busy")], "\(layout.groups)")
        #expect(layout.groups.dropFirst().first == [.command("cut"), .command("copy"), .command("paste")])
    }

    /// Two commands of the top level used alike share the section (either place leaves the top
    /// level the same), while a command just as used in a submenu stays there: promoting it would
    /// change the top level with whoever is in the sample.
    @Test func nearTiesOfTheTopLevelShareTheSectionAndANearTieInASubmenuStaysIn() throws {
        let commands = Self.titled(["low1", "low2", "t1", "t2", "m1", "m2"])
        let menu = ElementMenu(layout: Layout(groups: [
            [.command("low1"), .command("low2")], [.command("t1")], [.command("t2")],
            [.submenu(Submenu(title: "More", items: [.command("m1"), .command("m2")]))],
        ]))
        let usage = StabilityTests.usage([
            "low1": Self.picks(5) { _ in 1 }, "low2": Self.picks(5) { _ in 1 },
            "t1": Self.picks(100) { 14 + $0 % 5 },
            // m1 a little more used than t2, not significantly.
            "m1": Self.picks(60) { 8 + $0 % 5 }, "t2": Self.picks(58) { 8 + ($0 + 2) % 5 },
            "m2": Self.picks(5) { _ in 1 },
        ])
        let recommender = Recommender(options: .init(maxGroups: 2, maxGroupSize: 2, bootstrapRounds: 100))
        let proposal = recommender.recommend(current: menu, commands: commands, usage: usage, menuUsers: 100)
        let layout = try #require(Self.promoted(proposal))
        #expect(layout.groups.first == [.command("t1"), .command("t2")], "\(layout.groups)")
        let topLevel = layout.groups.joined().compactMap { item -> String? in
            if case let .command(id) = item { id } else { nil }
        }
        #expect(!topLevel.contains("m1"), "\(layout.groups)")
        let stability = recommender.stability(current: menu, commands: commands, usage: usage, menuUsers: 100)
        #expect((stability[.promote] ?? 0) >= 0.9, "\(stability)")

        // The same command clearly the most used of all comes out of its submenu.
        var clear = usage
        clear["m1"] = StabilityTests.usage(["m1": Self.picks(100) { 30 + $0 % 5 }])["m1"]
        let out = try #require(Self.promoted(recommender.recommend(current: menu, commands: commands, usage: clear,
                                                                     menuUsers: 100)))
        #expect(out.groups.first?.first == .command("m1"), "\(out.groups)")
    }

    /// The section never passes a unit it does not beat: two commands used as much as the first
    /// command of the submenu at the head go right below that submenu's group, not above it.
    @Test func theSectionStandsBelowWhatItDoesNotBeat() throws {
        let commands = Self.titled(["nd", "nf", "a", "b", "c", "z", "w"])
        let menu = ElementMenu(layout: Layout(groups: [
            [.submenu(Submenu(title: "New", items: [.command("nd"), .command("nf")]))],
            [.command("a"), .command("b"), .command("c")], [.command("z")], [.command("w")],
        ]))
        // nd, z and w used alike (800 picks each by the same 100 people, spread differently).
        let usage = StabilityTests.usage([
            "nd": Self.picks(100) { 6 + $0 % 5 }, "z": Self.picks(100) { 6 + ($0 + 2) % 5 },
            "w": Self.picks(100) { 6 + ($0 + 4) % 5 }, "nf": Self.picks(100) { 1 + $0 % 3 },
            "a": Self.picks(5) { _ in 1 }, "b": Self.picks(5) { _ in 1 }, "c": Self.picks(5) { _ in 1 },
        ])
        // A section of two places: nd, a near-tie of z and w, stays in its submenu, and z and w,
        // which do not beat it, stand below its group.
        let recommender = Recommender(options: .init(maxGroups: 2, maxGroupSize: 2))
        let proposal = recommender.recommend(current: menu, commands: commands, usage: usage, menuUsers: 100)
        let layout = try #require(Self.promoted(proposal))
        #expect(layout.groups.count >= 3, "\(layout.groups)")
        guard layout.groups.count >= 3 else { return }
        #expect(layout.groups[0] == menu.layout.groups[0], "\(layout.groups)")
        #expect(layout.groups[1] == [.command("z"), .command("w")], "\(layout.groups)")
        // What stays below keeps its place and group.
        #expect(layout.groups[2] == [.command("a"), .command("b"), .command("c")], "\(layout.groups)")
    }
}
