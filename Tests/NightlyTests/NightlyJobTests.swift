import CivilTime
import Menus
import Nightly
import Ranking
import Recommender
import Reports
import Testing

/// The nightly job on the in-memory store, with no database: what it files, what it finds on file
/// again, and that a night asked to stop files nothing.
@Suite struct NightlyJobTests {
    /// One element type whose current order is the reverse of its use (a changed proposal), and
    /// one whose order already follows it.
    static func store() -> MemoryNightlyStore {
        let manifest = Manifest(
            app: "mail", version: "1",
            commands: ["a": CommandInfo(title: "A"), "b": CommandInfo(title: "B"), "c": CommandInfo(title: "C")],
            menus: ["t": ElementMenu(layout: Layout(groups: [[.command("c"), .command("b"), .command("a")]])),
                    "u": ElementMenu(layout: Layout(groups: [[.command("a"), .command("b")]]))])
        let store = MemoryNightlyStore(manifest: manifest)
        for day in 1...28 {
            for (command, picks) in [("a", 30), ("b", 10), ("c", 2)] {
                for pick in 0..<picks {
                    store.add(id: "\(day)/\(command)/\(pick)", day: CivilDate(dayNumber: day), elementType: "t", command: command, user: "u\(pick)")
                }
            }
            store.add(id: "\(day)/u", day: CivilDate(dayNumber: day), elementType: "u", command: "a", user: "u1")
        }
        return store
    }

    static let job = NightlyJob(window: RankingWindow(asOf: CivilDate(dayNumber: 28)), options: Recommender.Options(), files: true)

    @Test func aNightFilesWhatChangesAndTheNextFindsItOnFile() throws {
        let store = Self.store()
        let first = try #require(try Self.job.run(appNamed: nil, on: store).first)
        #expect(first.report.elementTypes.map(\.elementType) == ["t", "u"])
        #expect(first.filings == ["t": .filed(id: 1, superseded: [])])
        #expect(first.report.elementTypes[0].proposalID == 1 && first.report.elementTypes[1].proposalID == nil)
        #expect(store.proposals.map(\.status) == ["pending"])
        // The document is written once: what was filed is what the run prints.
        #expect(first.filedJSON[0] == store.proposals[0].evidence)
        #expect(first.jsonText() == first.report.jsonText())
        #expect(first.rollup.days == (1...28).map(CivilDate.init(dayNumber:)))

        let again = try #require(try Self.job.run(appNamed: nil, on: store).first)
        #expect(again.filings == ["t": .alreadyPending(id: 1)])
        #expect(again.filedJSON.isEmpty && again.jsonText() == first.jsonText())
        #expect(store.proposals.count == 1)

        // Rejected: never filed again for the same base.
        store.reject(id: 1)
        let third = try #require(try Self.job.run(appNamed: nil, on: store).first)
        #expect(third.filings == ["t": .alreadyRejected(id: 1)])
        #expect(store.proposals.count == 1)
    }

    @Test func aDryRunFilesNothingAndReportsTheSameDocuments() throws {
        let store = Self.store()
        var dry = Self.job
        dry.files = false
        let run = try #require(try dry.run(appNamed: nil, on: store).first)
        #expect(run.filings.isEmpty && store.proposals.isEmpty)
        #expect(run.report.elementTypes[0].changed && run.report.elementTypes[0].proposalID == nil)
        let filed = try #require(try Self.job.run(appNamed: nil, on: Self.store()).first)
        var unnumbered = filed.report
        unnumbered.elementTypes[0].proposalID = nil
        #expect(unnumbered == run.report)
    }

    @Test func aNightAskedToStopFilesNothing() throws {
        let store = Self.store()
        // Asked before the app: nothing runs; asked after the app's night was computed (the
        // second question is the one before filing): nothing is filed.
        for stopAt in [1, 2] {
            var asked = 0
            #expect(throws: NightlyError.cancelled) {
                _ = try Self.job.run(appNamed: nil, on: store, shouldStop: {
                    asked += 1
                    return asked >= stopAt
                })
            }
            #expect(asked == stopAt)
            #expect(store.proposals.isEmpty)
        }
    }
}
