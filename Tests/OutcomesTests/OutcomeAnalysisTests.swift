import CivilTime
import Outcomes
import Testing

@Suite struct OutcomeAnalysisTests {
    /// The window: days 0 to 27 (1970-01-01 to 1970-01-28), as the rows' day numbers count.
    static let first = CivilDate(dayNumber: 0)
    static let last = CivilDate(dayNumber: 27)

    func row(_ day: Int, _ version: String, opens: Int, median: Double, seed: UInt64,
             type: String = "mail.message") -> OutcomeAnalysis.DayRow
    {
        var random = SeededRandom(seed: seed)
        return OutcomeAnalysis.DayRow(day: CivilDate(dayNumber: day), elementType: type, menuVersion: version,
                                      tally: generatedTally(opens: opens, dismissal: 0.04, medianLatency: median,
                                                            random: &random))
    }

    let layouts = [
        OutcomeAnalysis.Layout(elementType: "mail.message", layoutVersion: 1, menuVersion: "2026.11.1",
                               proposalID: nil, firstDay: CivilDate(dayNumber: 0)),
        OutcomeAnalysis.Layout(elementType: "mail.message", layoutVersion: 2, menuVersion: "2026.11.1+2",
                               proposalID: 12, firstDay: CivilDate(dayNumber: 20),
                               predicted: PredictedEvidence(scanDepthBefore: 2.8, scanDepthAfter: 2.1,
                                                            timeSavedSeconds: 0.28)),
    ]

    @Test func versionsAreKnownUnknownOrNotSent() {
        let rows = [row(10, "2026.11.1", opens: 100, median: 1000, seed: 1),
                    row(11, "2026.10.9-beta", opens: 40, median: 1000, seed: 2),
                    row(11, "", opens: 30, median: 1000, seed: 3)]
        let report = OutcomeAnalysis().report(app: "mail", windowFrom: Self.first, windowTo: Self.last, rows: rows, layouts: layouts)
        let versions = report.elementTypes[0].versions
        #expect(versions.map(\.menuVersion) == ["2026.11.1", "2026.10.9-beta", ""])
        #expect(versions[0].status == .known(layoutVersion: 1, proposalID: nil))
        #expect(versions[1].status == .unknown)
        #expect(versions[1].tally.opens == 40)
        #expect(versions[2].status == .notSent)
    }

    /// A running rollout's arm has a menu version no stored layout has yet: it reads as the
    /// rollout's, after the known versions, and only a version nobody made reads as unknown.
    @Test func aRolloutArmIsNamedAsTheRollout() {
        let rows = [row(10, "2026.11.1", opens: 100, median: 1000, seed: 1),
                    row(10, "2026.11.1+9", opens: 30, median: 900, seed: 2),
                    row(11, "stray", opens: 5, median: 1000, seed: 3)]
        let arm = OutcomeAnalysis.Rollout(elementType: layouts[0].elementType, menuVersion: "2026.11.1+9", rolloutID: 4, proposalID: 7)
        let other = OutcomeAnalysis.Rollout(elementType: "elsewhere", menuVersion: "stray", rolloutID: 5, proposalID: 8)
        let report = OutcomeAnalysis().report(app: "mail", windowFrom: Self.first, windowTo: Self.last, rows: rows, layouts: layouts,
                                              rollouts: [arm, other])
        let versions = report.elementTypes[0].versions
        #expect(versions.map(\.menuVersion) == ["2026.11.1", "2026.11.1+9", "stray"])
        #expect(versions[1].status == .rollout(rolloutID: 4, proposalID: 7) && versions[1].tally.opens == 30)
        #expect(versions[2].status == .unknown)
    }

    @Test func mixedClientsAreComparedOverTheDaysBothWereServed() {
        var rows: [OutcomeAnalysis.DayRow] = []
        for day in 14..<20 { rows.append(row(day, "2026.11.1", opens: 400, median: 1500, seed: UInt64(day))) }
        for day in 20..<28 {
            rows.append(row(day, "2026.11.1", opens: 150, median: 1500, seed: UInt64(100 + day)))
            rows.append(row(day, "2026.11.1+2", opens: 300, median: 1100, seed: UInt64(200 + day)))
        }
        let report = OutcomeAnalysis().report(app: "mail", windowFrom: Self.first, windowTo: Self.last, rows: rows, layouts: layouts)
        let comparison = report.elementTypes[0].comparisons[0]
        #expect(comparison.comparison.method == .sameDays((20..<28).map(CivilDate.init(dayNumber:))))
        #expect(comparison.comparison.old.opens == 150 * 8)
        #expect(comparison.comparison.verdict == .faster)
        #expect(comparison.predicted?.scanDepthAfter == 2.1)
        #expect(comparison.oldMenuVersion == "2026.11.1" && comparison.newMenuVersion == "2026.11.1+2")
    }

    @Test func aCleanSwitchIsComparedOverAdjacentWindows() {
        var rows: [OutcomeAnalysis.DayRow] = []
        for day in 10..<20 { rows.append(row(day, "2026.11.1", opens: 300, median: 1000, seed: UInt64(day))) }
        for day in 20..<28 { rows.append(row(day, "2026.11.1+2", opens: 300, median: 1300, seed: UInt64(50 + day))) }
        let report = OutcomeAnalysis().report(app: "mail", windowFrom: Self.first, windowTo: Self.last, rows: rows, layouts: layouts)
        let comparison = report.elementTypes[0].comparisons[0].comparison
        #expect(comparison.method == .adjacentWindows(before: (10..<20).map(CivilDate.init(dayNumber:)),
                                                      after: (20..<28).map(CivilDate.init(dayNumber:))))
        #expect(comparison.verdict == .slower)
    }

    @Test func anElementTypeFilterAndTheWindowLimitTheRows() {
        let rows = [row(5, "2026.11.1", opens: 10, median: 800, seed: 1),
                    row(40, "2026.11.1", opens: 10, median: 800, seed: 2),
                    row(6, "v1", opens: 10, median: 800, seed: 3, type: "mail.folder")]
        let report = OutcomeAnalysis().report(app: "mail", windowFrom: Self.first, windowTo: Self.last, rows: rows, layouts: layouts,
                                              elementType: "mail.message")
        #expect(report.elementTypes.map(\.elementType) == ["mail.message"])
        #expect(report.elementTypes[0].versions[0].tally.opens == 10)
        // The accepted layout has no opens yet: compared, but without a verdict.
        #expect(report.elementTypes[0].comparisons.map(\.comparison.verdict) == [.noEvidenceYet])
    }
}
