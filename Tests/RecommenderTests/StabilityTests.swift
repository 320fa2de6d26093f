import Menus
import Ranking
import Recommender
import Testing

/// Stability over resamples of people, and the gate that resamples them (DESIGN.md, "People are
/// the unit of evidence").
@Suite("Stability over resamples of people")
struct StabilityTests {
    let menu = MailExample.menu
    let commands = MailExample.commands

    /// Usage from per-person picks: `people[command]` lists (person, picks); every pick is on a day
    /// of its own, so user-days equal picks.
    static func usage(_ people: [String: [(String, Int)]]) -> [String: UsageCount] {
        people.mapValues { picks in
            var split = PeopleCounts.zero
            for (person, count) in picks {
                split.selections[PersonBucket.of(user: person)] += Double(count)
                split.userDays[PersonBucket.of(user: person)] += Double(count)
            }
            let total = Double(picks.reduce(0) { $0 + $1.1 })
            return UsageCount(selections: total, users: picks.count, userDays: total, people: split)
        }
    }

    /// The DESIGN.md counts, each command's picks spread over as many people as it has picks / 5.
    func spread() -> [String: UsageCount] {
        Self.usage(MailExample.selections.mapValues { total in
            (0..<max(1, total / 5)).map { ("\($0)", 5) }
        })
    }

    @Test func clearDifferencesAmongManyPeopleAreStable() {
        let recommender = Recommender(options: .init(bootstrapRounds: 60))
        let stability = recommender.stability(current: menu, commands: commands, usage: spread(), menuUsers: 800)
        #expect(stability[.regroup] == 1)
        #expect(stability[.promote] == 1)
    }

    @Test func deterministic() {
        let recommender = Recommender(options: .init(bootstrapRounds: 30))
        let a = recommender.stability(current: menu, commands: commands, usage: spread(), menuUsers: 800)
        let b = recommender.stability(current: menu, commands: commands, usage: spread(), menuUsers: 800)
        #expect(a == b)
        #expect(a.values.allSatisfy { (0...1).contains($0) })
    }

    /// One person's habit is one observation: 2,000 picks of `print` by a single person do not let
    /// it pass commands that a hundred people use now and then, while the same picks by 200
    /// people do.
    @Test func oneHeavyUserIsNotEvidence() {
        let recommender = Recommender()
        var people: [String: [(String, Int)]] = [:]
        for id in MailExample.selections.keys where id != "print" {
            people[id] = (0..<100).map { ("p\($0)", 3) }
        }
        people["print"] = [("heavy", 2000)]
        let one = recommender.recommend(current: menu, commands: commands, usage: Self.usage(people), menuUsers: 101)
        #expect(one.layout.groups.first?.first != .command("print"))
        people["print"] = (0..<200).map { ("q\($0)", 10) }
        let many = recommender.recommend(current: menu, commands: commands, usage: Self.usage(people), menuUsers: 300)
        #expect(many.layout.groups.first?.first == .command("print"))
    }

    @Test func theGateTreatsABucketAsOneCluster() {
        let gate = UsageGate()
        var heavy = [Double](repeating: 0, count: PersonBucket.count)
        heavy[3] = 500
        let few = [Double](repeating: 2, count: PersonBucket.count)
        // 500 picks in one bucket (a single person) against 128 spread over every bucket.
        #expect(!gate.beats(UsageGate.Evidence(count: 500, people: heavy), UsageGate.Evidence(count: 128, people: few)))
        #expect(gate.beats(UsageGate.Evidence(count: 128, people: few), UsageGate.Evidence(count: 0, people: [])))
        // Without a split, the counts are independent draws (the Wilson test).
        #expect(gate.beats(UsageGate.Evidence(count: 500), UsageGate.Evidence(count: 128)))
        // A resample that drops bucket 3 leaves the heavy side with nothing.
        var draws = [Double](repeating: 1, count: PersonBucket.count)
        draws[3] = 0
        #expect(!UsageGate(multiplicity: draws).beats(UsageGate.Evidence(count: 500, people: heavy),
                                                     UsageGate.Evidence(count: 0, people: few.map { _ in 0 })))
    }

    /// The gate on scaled sides (use per place) is the gate on the sides `times` makes, to the
    /// bit: random splits, empty and zero sides, counts alone, resamples that drop buckets.
    @Test func theScaledGateIsTheGateOnScaledSides() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 40) / Double(1 << 24)
        }
        func side() -> UsageGate.Evidence {
            switch Int(next() * 5) {
            case 0: return .zero
            case 1: return UsageGate.Evidence(count: (next() * 200).rounded())
            default:
                let people = (0..<PersonBucket.count).map { _ in next() < 0.6 ? 0 : (next() * 9).rounded() }
                return UsageGate.Evidence(count: people.reduce(0, +), people: people)
            }
        }
        var passed = 0
        for round in 0..<4000 {
            let gate = round % 3 == 0
                ? UsageGate(multiplicity: (0..<PersonBucket.count).map { _ in (next() * 3).rounded(.down) })
                : UsageGate()
            let (b, a) = (side(), side())
            let (kb, ka) = (Double(1 + Int(next() * 4)), [1, 1.5, 2, 3, 7][Int(next() * 5)])
            let expected = gate.beats(b.times(kb), a.times(ka))
            #expect(gate.beats(b, times: kb, a, times: ka) == expected, "round \(round)")
            if expected { passed += 1 }
        }
        #expect(passed > 400 && passed < 3600)   // both outcomes are exercised
    }

    /// A top level that depends on which few people are drawn is tentative: the sixth place goes
    /// to `left` or `right`, each used by a handful of people.
    @Test func aTopLevelThatDependsOnFewPeopleIsTentative() {
        let ids = (1...6).map { "c\($0)" } + ["left", "right", "c7", "c8", "c9"]
        let current = ElementMenu(layout: Layout(groups: [
            [.command("c7"), .command("c8"), .command("c9")],
            ids[0..<3].map { MenuItem.command($0) }, ids[3..<6].map { MenuItem.command($0) },
            [.command("left"), .command("right")],
        ]))
        let commands = Dictionary(uniqueKeysWithValues: ids.map { ($0, CommandInfo(title: $0.capitalized)) })
        var people: [String: [(String, Int)]] = [:]
        for (rank, id) in ids.prefix(5).enumerated() { people[id] = (0..<(300 - 20 * rank)).map { ("p\($0)", 4) } }
        people["c6"] = (0..<6).map { ("a\($0)", 4) }
        people["left"] = (0..<7).map { ("l\($0)", 4) }
        people["right"] = (0..<7).map { ("r\($0)", 4) }
        for id in ["c7", "c8", "c9"] { people[id] = (0..<2).map { ("z\($0)", 1) } }
        let usage = Self.usage(people)
        let recommender = Recommender(options: .init(bootstrapRounds: 100))
        var proposal = recommender.recommend(current: current, commands: commands, usage: usage, menuUsers: 400)
        let stability = recommender.stability(current: current, commands: commands, usage: usage, menuUsers: 400)
        proposal.assess(stabilities: stability, minimum: 0.9)
        #expect(proposal.changed)
        let filed = try? #require(proposal.step)
        #expect(filed.flatMap { stability[$0] }.map { $0 < 1 } == true, "\(stability)")
        #expect(proposal.stability == filed.flatMap { stability[$0] })
    }

    /// The rounds counted in parts, as the nightly run shares them out on its cores, add up to
    /// the stability of all of them, wherever they are cut.
    @Test func roundsCountedInPartsAddUpToTheWhole() {
        let recommender = Recommender(options: .init(bootstrapRounds: 40))
        let usage = spread()
        let whole = recommender.stability(current: menu, commands: commands, usage: usage, menuUsers: 800)
        let bootstrap = recommender.bootstrap(current: menu, commands: commands, usage: usage, menuUsers: 800)
        #expect(bootstrap.rounds == 40)
        for cuts in [[0, 40], [0, 1, 40], [0, 20, 40], [0, 7, 20, 33, 40]] {
            var votes = [0, 0, 0]
            for (low, high) in zip(cuts, cuts.dropFirst()) {
                for (index, count) in bootstrap.votes(rounds: low..<high).enumerated() { votes[index] += count }
            }
            #expect(bootstrap.stability(votes: votes) == whole, "cut at \(cuts)")
        }
    }
}
