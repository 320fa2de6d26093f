import CivilTime
import Menus
@testable import Nightly
import Ranking
import Recommender
import Testing

/// The nightly use case: stability is resampled (people) only for proposals not already on file.
@Suite struct NightlyRunTests {
    /// One element type whose current order is the reverse of its use: a changed proposal.
    func night() -> (NightlyRun, Manifest, [ElementTypeActivity]) {
        let manifest = Manifest(
            app: "mail", version: "1",
            commands: ["a": CommandInfo(title: "A"), "b": CommandInfo(title: "B"), "c": CommandInfo(title: "C")],
            menus: ["t": ElementMenu(layout: Layout(groups: [[.command("c"), .command("b"), .command("a")]]))])
        let store = MemoryNightlyStore(manifest: manifest)
        for day in 1...28 {
            for (command, picks) in [("a", 30), ("b", 10), ("c", 2)] {
                for pick in 0..<picks {
                    store.add(id: "\(day)/\(command)/\(pick)", day: CivilDate(dayNumber: day), elementType: "t", command: command,
                              user: "u\(pick)")
                }
            }
        }
        let window = RankingWindow(asOf: CivilDate(dayNumber: 28))
        return (NightlyRun(window: window, options: Recommender.Options()), manifest, store.activities(in: window))
    }

    @Test func aProposalNotOnFileIsResampled() throws {
        let (run, manifest, activities) = night()
        let outcome = run.run(app: "mail", manifest: manifest, activities: activities, recordedStability: { _ in [:] })
        let document = try #require(outcome.report.elementTypes.first)
        #expect(document.changed)
        #expect(document.evidence.stability == 1)
        #expect(outcome.toFile == ["t"])
    }

    @Test func aProposalOnFileKeepsItsRecordedStabilityAndIsNotResampled() throws {
        let (run, manifest, activities) = night()
        var offered: [String: Layout] = [:]
        let outcome = run.run(app: "mail", manifest: manifest, activities: activities,
                              recordedStability: { proposed in
                                  offered = proposed
                                  return ["t": [.promote: 0.5, .reorder: 0.25]]
                              })
        let document = try #require(outcome.report.elementTypes.first)
        #expect(offered == ["t": document.proposed])
        #expect(document.step == "promote")
        #expect(document.evidence.stability == 0.5)
        #expect(document.ladder.map(\.stability) == [0.5, 0.25, nil])
        #expect(document.evidence.tentative)
        #expect(outcome.toFile.isEmpty)
    }

    /// The stabilities of changed proposals, shared out on the cores: one element type's rounds
    /// cut into parts when there are few of them, whole element types when there are many; the
    /// same values, bit for bit, as each one's `Recommender.stability` on one thread.
    @Test func stabilitiesSharedOutOnTheCoresAreEachOnesOwn() {
        // Twelve commands in four groups of three for nine top-level places; the middle ones are
        // used by few people each (a deterministic pseudo-random spread per element type), so which
        // of them reach the top depends on the people resampled.
        let ids = (0..<12).map { "c\($0)" }
        let menu = ElementMenu(layout: Layout(groups: (0..<4).map { group in ids[3 * group..<3 * group + 3].map { MenuItem.command($0) } }))
        let commands = Dictionary(uniqueKeysWithValues: ids.map { ($0, CommandInfo(title: $0)) })
        let recommender = Recommender(options: Recommender.Options(bootstrapRounds: 40))
        func usage(_ seed: UInt64) -> [String: UsageCount] {
            var state = seed
            return Dictionary(uniqueKeysWithValues: ids.enumerated().map { rank, id in
                var split = PeopleCounts.zero
                for bucket in 0..<PersonBucket.count {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let swing = Double(state >> 60)   // 0-15
                    let picks = rank < 6 ? Double(40 - 3 * rank) : rank < 10 ? (bucket % 8 == 0 ? swing : 0) : 0.05
                    split.selections[bucket] = picks
                    split.userDays[bucket] = picks
                }
                let total = split.userDays.reduce(0, +)
                return (id, UsageCount(selections: total, users: 1000, userDays: total, people: split))
            })
        }
        let all = (1...9).map { seed in
            (bootstrap: recommender.bootstrap(current: menu, commands: commands, usage: usage(UInt64(seed)), menuUsers: 3000),
             alone: recommender.stability(current: menu, commands: commands, usage: usage(UInt64(seed)), menuUsers: 3000))
        }
        for count in [0, 1, 2, 3, 9] {
            for cores in [1, 2, 3, 8] {
                let shared = NightlyRun.stabilities(all.prefix(count).map(\.bootstrap), cores: cores)
                #expect(shared == all.prefix(count).map(\.alone), "\(count) element types, \(cores) cores")
            }
        }
    }
}
