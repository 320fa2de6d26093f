import Menus
import Nightly
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
}
