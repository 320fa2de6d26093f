import CivilTime
import Experiments
import Foundation
import Reports
import Testing

/// The rollout section of the report and the review page: a chart per metric whose band follows
/// the looks, the verdict, and no number that is not finite.
@Suite struct RolloutChartsHTMLTests {
    static func looks(days: Int) -> [ExperimentLook] {
        (0..<days).map { day in
            let half = 400 / Double(day + 2)
            let median = MetricComparison(old: 900, new: 780, difference: ConfidenceSequence(estimate: -120, lower: -120 - half,
                                                                                              upper: -120 + half),
                                          variance: half * half / 9)
            let rate = MetricComparison(old: 0.05, new: 0.05, difference: ConfidenceSequence(estimate: 0, lower: -0.01, upper: 0.01),
                                        variance: 0.000_02)
            return ExperimentLook(day: CivilDate(dayNumber: 20_400 + day), oldPeople: 100 * (day + 1), newPeople: 25 * (day + 1), mixedPeople: 0,
                                  expectedShare: 0.2, observedShare: 0.2, sampleRatioPValue: 1,
                                  metrics: [.medianLatency: median, .dismissalRate: rate],
                                  verdict: -120 + half < 0 ? .better : .noDifferenceYet, reason: "because <of> & \"so\"")
        }
    }

    @Test func aChartPerMetricFollowsTheLooks() throws {
        let view = RolloutView(id: 3, elementType: "mail.message", status: "running", share: 0.2, oldMenuVersion: "1",
                               newMenuVersion: "1+2", looks: Self.looks(days: 14))
        let html = RolloutChartsHTML().section([view])
        #expect(html.contains("id=\"rollout-3-median_latency_ms\"") && html.contains("id=\"rollout-3-dismissal_rate\""))
        #expect(html.components(separatedBy: "<polygon class=\"band\"").count == 3)
        #expect(html.components(separatedBy: "class=\"estimate-point\"").count == 1 + 2 * 14)
        #expect(html.contains("rollout-verdict better") && html.contains("because &lt;of&gt; &amp; &quot;so&quot;"))
        #expect(!html.contains("nan") && !html.contains("inf"))
        #expect(RolloutChartsHTML().section([]).isEmpty)
        let empty = RolloutView(id: 4, elementType: "x", status: "stopped", share: 0.5, oldMenuVersion: "1", newMenuVersion: "2",
                                looks: [])
        #expect(RolloutChartsHTML().block(empty).contains("No events of either arm"))
        if let path = ProcessInfo.processInfo.environment["MENURANK_ROLLOUT_CHART_HTML"] {
            try ("<!doctype html><meta charset=utf-8><body style=\"font-family:sans-serif;margin:2em\">" + html)
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}
