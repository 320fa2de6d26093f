import Menus
import Recommender
import Testing

@Suite("Day-bootstrap stability")
struct StabilityTests {
    let menu = MailExample.menu
    let commands = MailExample.commands

    /// 28 days, each with a fixed share of the DESIGN.md counts.
    func days(noise: (Int, String) -> Double) -> [[String: UsageCount]] {
        (0..<28).map { day in
            MailExample.selections.mapValues { total in
                let picks = max(0, Double(total) / 28 * noise(day, ""))
                return UsageCount(selections: picks, users: total, userDays: picks)
            }
        }
    }

    /// Twelve commands for nine slots: six steady ones, then "left" and "right" (one category
    /// each, with a quiet partner) swinging from day to day, 1,120 and 1,288 picks over the
    /// window. Which of them reaches the top level depends on the days resampled.
    static func leftOrRight() -> (menu: ElementMenu, commands: [String: CommandInfo], days: [[String: UsageCount]]) {
        let ids = (1...6).map { "c\($0)" } + ["left", "left2", "right", "right2", "c7", "c8"]
        let menu = ElementMenu(layout: Layout(groups: [
            ids[0..<3].map { MenuItem.command($0) }, ids[3..<6].map { MenuItem.command($0) },
            [.submenu(Submenu(title: "Left", items: [.command("left"), .command("left2")])),
             .submenu(Submenu(title: "Right", items: [.command("right"), .command("right2")]))],
            [.command("c7"), .command("c8")],
        ]))
        let commands = Dictionary(uniqueKeysWithValues: ids.map { ($0, CommandInfo(title: $0.capitalized)) })
        let swinging: [[String: UsageCount]] = (0..<28).map { day in
            var out: [String: UsageCount] = [:]
            for (rank, id) in ids.prefix(6).enumerated() {
                out[id] = UsageCount(selections: Double(400 - 20 * rank), users: 5000, userDays: Double(400 - 20 * rank))
            }
            let left: Double = day % 2 == 0 ? 80 : 0
            let right: Double = day % 2 == 0 ? 20 : 72
            out["left"] = UsageCount(selections: left, users: 900, userDays: left)
            out["right"] = UsageCount(selections: right, users: 900, userDays: right)
            for id in ["left2", "right2", "c7", "c8"] { out[id] = UsageCount(selections: 3, users: 2000, userDays: 3) }
            return out
        }
        return (menu, commands, swinging)
    }

    @Test func clearDifferencesAreStable() {
        let recommender = Recommender()
        let steady = days { _, _ in 1 }
        let stability = recommender.stability(current: menu, commands: commands, days: steady, menuUsers: 800)
        #expect(stability == 1)
    }

    @Test func deterministicAndAShare() {
        let recommender = Recommender(options: .init(bootstrapRounds: 50))
        // Day-to-day swings: some days nearly empty, some double.
        let swinging = days { day, _ in day % 3 == 0 ? 0.05 : (day % 3 == 1 ? 2 : 1) }
        let a = recommender.stability(current: menu, commands: commands, days: swinging, menuUsers: 800)
        let b = recommender.stability(current: menu, commands: commands, days: swinging, menuUsers: 800)
        #expect(a == b)
        #expect((0...1).contains(a))
        #expect(recommender.stability(current: menu, commands: commands, days: [], menuUsers: 0) == 1)
    }

    @Test func aTopLevelThatDependsOnTheDaysIsTentative() {
        let (menu, commands, swinging) = Self.leftOrRight()
        let recommender = Recommender()
        let stability = recommender.stability(current: menu, commands: commands, days: swinging, menuUsers: 5000)
        var total: [String: UsageCount] = [:]
        for day in swinging {
            for (id, count) in day {
                let sum = (total[id]?.selections ?? 0) + count.selections
                total[id] = UsageCount(selections: sum, users: count.users, userDays: sum)
            }
        }
        var proposal = recommender.recommend(current: menu, commands: commands, usage: total, menuUsers: 5000)
        proposal.assess(stability: stability, minimum: 0.9)
        #expect(proposal.changed)
        #expect(stability < 0.9)
        #expect(proposal.tentative)
        #expect(proposal.stability == stability)
    }

    @Test func anOrderThatDependsOnTheDaysKeepsTheTopLevel() {
        // reply and forward swing from day to day: their order depends on the days resampled, but
        // what stands at the top level does not, and that is what stability measures.
        let recommender = Recommender()
        let swinging: [[String: UsageCount]] = (0..<28).map { day in
            var out = MailExample.selections.mapValues { UsageCount(selections: Double($0) / 28, users: $0) }
            out["reply"] = UsageCount(selections: day % 2 == 0 ? 80 : 0, users: 900)
            out["forward"] = UsageCount(selections: day % 2 == 0 ? 20 : 72, users: 900)
            return out
        }
        let stability = recommender.stability(current: menu, commands: commands, days: swinging, menuUsers: 2000)
        #expect(stability == 1)
    }

    /// The rounds counted in parts, as the nightly run shares them out on its cores when few
    /// element types need them, add up to the stability of all of them, bit for bit, wherever
    /// they are cut; and that is the value the rounds drawn one after the other gave (pinned).
    @Test func roundsCountedInPartsAddUpToTheWhole() {
        let (menu, commands, days) = Self.leftOrRight()
        let recommender = Recommender()
        let whole = recommender.stability(current: menu, commands: commands, days: days, menuUsers: 5000)
        #expect(whole == 0.585)   // 117 of the 200 rounds, as counted before the rounds could be cut
        let bootstrap = recommender.bootstrap(current: menu, commands: commands, days: days, menuUsers: 5000)
        #expect(bootstrap.rounds == 200)
        for cuts in [[0, 200], [0, 1, 200], [0, 100, 200], [0, 37, 100, 163, 200], [0, 50, 100, 150, 200]] {
            let votes = zip(cuts, cuts.dropFirst()).map { bootstrap.votes(rounds: $0..<$1) }.reduce(0, +)
            #expect(bootstrap.stability(votes: votes).bitPattern == whole.bitPattern, "cut at \(cuts)")
        }
        #expect(recommender.bootstrap(current: menu, commands: commands, days: [], menuUsers: 0).stability(votes: 0) == 1)
    }
}
