import Menus
@testable import Nightly
import Ranking
import Recommender
import Testing

/// The nightly use case: stability is resampled only for proposals not already on file.
@Suite struct NightlyRunTests {
    /// One element type whose current order is the reverse of its use: a changed proposal.
    func night() -> (NightlyRun, Manifest, [ElementTypeActivity], [String: [CommandDay]]) {
        let manifest = Manifest(
            app: "mail", version: "1",
            commands: ["a": CommandInfo(title: "A"), "b": CommandInfo(title: "B"), "c": CommandInfo(title: "C")],
            menus: ["t": ElementMenu(layout: Layout(groups: [[.command("c"), .command("b"), .command("a")]]))])
        var tally = UsageTally()
        for day in 1...28 {
            for (command, picks) in [("a", 30), ("b", 10), ("c", 2)] {
                for pick in 0..<picks {
                    tally.add(id: "\(day)/\(command)/\(pick)", day: day, elementType: "t", command: command,
                              user: "u\(pick)")
                }
            }
        }
        let window = RankingWindow(asOf: 28)
        return (NightlyRun(window: window, options: Recommender.Options()), manifest, tally.activities(in: window),
                tally.days(in: window))
    }

    @Test func aProposalNotOnFileIsResampled() throws {
        let (run, manifest, activities, days) = night()
        var asked: Set<String> = []
        let outcome = run.run(app: "mail", manifest: manifest, activities: activities,
                              dailyUsage: { asked.formUnion($0); return days }, recordedStability: { _ in [:] })
        #expect(asked == ["t"])
        let document = try #require(outcome.report.elementTypes.first)
        #expect(document.changed)
        #expect(document.evidence.stability == 1)
        #expect(outcome.toFile == ["t"])
    }

    @Test func aProposalOnFileKeepsItsRecordedStabilityAndIsNotResampled() throws {
        let (run, manifest, activities, days) = night()
        var asked: Set<String> = []
        var offered: [String: Layout] = [:]
        let outcome = run.run(app: "mail", manifest: manifest, activities: activities,
                              dailyUsage: { asked.formUnion($0); return days },
                              recordedStability: { proposed in offered = proposed; return ["t": 0.5] })
        #expect(asked.isEmpty)
        let document = try #require(outcome.report.elementTypes.first)
        #expect(offered == ["t": document.proposed])
        #expect(document.evidence.stability == 0.5)
        #expect(document.evidence.tentative)
        #expect(outcome.toFile.isEmpty)
    }

    /// The stabilities of changed proposals, shared out on the cores: one element type's rounds
    /// cut into parts when there are few of them, whole element types when there are many; the
    /// same values, bit for bit, as each one's `Recommender.stability` on one thread.
    @Test func stabilitiesSharedOutOnTheCoresAreEachOnesOwn() {
        // Twelve commands in four groups of three for nine top-level places; the counts of the
        // middle ones swing from day to day (a deterministic pseudo-random walk per element
        // type), so which of them reach the top level depends on the days resampled.
        let ids = (0..<12).map { "c\($0)" }
        let menu = ElementMenu(layout: Layout(groups: (0..<4).map { group in ids[3 * group..<3 * group + 3].map { MenuItem.command($0) } }))
        let commands = Dictionary(uniqueKeysWithValues: ids.map { ($0, CommandInfo(title: $0)) })
        let recommender = Recommender(options: Recommender.Options(bootstrapRounds: 40))
        func days(_ seed: UInt64) -> [[String: UsageCount]] {
            var state = seed
            return (0..<28).map { _ in
                Dictionary(uniqueKeysWithValues: ids.enumerated().map { rank, id in
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let swing = Double(state >> 58)   // 0-63
                    let picks = rank < 6 ? Double(300 - 20 * rank) : rank < 10 ? 10 + swing : 2
                    return (id, UsageCount(selections: picks, users: 1000, userDays: picks))
                })
            }
        }
        let all = (1...9).map { seed in
            (bootstrap: recommender.bootstrap(current: menu, commands: commands, days: days(UInt64(seed)), menuUsers: 3000),
             alone: recommender.stability(current: menu, commands: commands, days: days(UInt64(seed)), menuUsers: 3000))
        }
        #expect(all.contains { $0.alone > 0 && $0.alone < 1 })
        for count in [0, 1, 2, 3, 9] {
            for cores in [1, 2, 3, 8] {
                let shared = NightlyRun.stabilities(all.prefix(count).map(\.bootstrap), cores: cores)
                #expect(shared.map(\.bitPattern) == all.prefix(count).map(\.alone.bitPattern), "\(count) element types, \(cores) cores")
            }
        }
    }
}
