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

    @Test func aSwapThatDependsOnTheDaysIsTentative() {
        // reply and forward swing from day to day (1,120 and 1,288 picks over the window): which of
        // them leads, and whether either passes reply_all, depends on the days resampled.
        let recommender = Recommender()
        let swinging: [[String: UsageCount]] = (0..<28).map { day in
            var out = MailExample.selections.mapValues { UsageCount(selections: Double($0) / 28, users: $0) }
            out["reply"] = UsageCount(selections: day % 2 == 0 ? 80 : 0, users: 900)
            out["forward"] = UsageCount(selections: day % 2 == 0 ? 20 : 72, users: 900)
            return out
        }
        let stability = recommender.stability(current: menu, commands: commands, days: swinging, menuUsers: 2000)
        var total: [String: UsageCount] = [:]
        for day in swinging {
            for (id, count) in day {
                let sum = (total[id]?.selections ?? 0) + count.selections
                total[id] = UsageCount(selections: sum, users: count.users)
            }
        }
        var proposal = recommender.recommend(current: menu, commands: commands, usage: total, menuUsers: 2000)
        proposal.assess(stability: stability, minimum: 0.9)
        #expect(stability < 0.9)
        #expect(proposal.tentative)
        #expect(proposal.stability == stability)
    }
}
