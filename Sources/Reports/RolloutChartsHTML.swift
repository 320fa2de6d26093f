import CivilTime
import Escaping
import Experiments
import Foundation

/// The rollout section of the HTML report and the review page: per rollout, its arms, share,
/// status and verdict, and a chart of the always-valid interval of each arm difference over the
/// days (median selection latency, dismissal rate): the band narrows as people come in, and the
/// verdict is reached the day it leaves zero. Inline SVG, no scripts; both axes with ticks and a
/// label, a title, and a legend.
public struct RolloutChartsHTML: Sendable {
    public init() {}

    static let width = 640.0, height = 240.0
    public static let css = """
        .rollout-chart { margin: 0.8em 0 1.4em; }
        .rollout-chart figcaption { color: #424245; font-size: 0.9em; }
        .chart .band { fill: #1a73e8; opacity: 0.18; }
        .chart .estimate { fill: none; stroke: #1a73e8; stroke-width: 2; }
        .chart .zero { stroke: #424245; stroke-dasharray: 4 3; }
        .chart .gridline { stroke: #ececf0; }
        .chart .axis { stroke: #86868b; }
        .rollout-verdict { font-weight: 600; }
        .rollout-verdict.better { color: #188038; } .rollout-verdict.worse { color: #d93025; }
        .rollout-verdict.mismatch { color: #b06000; }
        """

    /// The section for an app's rollouts (nothing when it has none).
    public func section(_ rollouts: [RolloutView]) -> String {
        guard !rollouts.isEmpty else { return "" }
        var out = "<section class=\"rollouts\">\n<style>\n\(Self.css)\n</style>\n<h2>Rollouts</h2>\n"
        for rollout in rollouts { out += block(rollout) }
        return out + "</section>\n"
    }

    /// One rollout: its facts, verdict and charts.
    public func block(_ rollout: RolloutView) -> String {
        var out = "<article class=\"rollout\" data-rollout=\"\(rollout.id)\">\n"
        out += "<h3>Rollout #\(rollout.id): <code>\(esc(rollout.elementType))</code>, \(esc(rollout.status))</h3>\n"
        out += "<p>Rollout layout <code>\(esc(rollout.newMenuVersion))</code> for \(esc(ReportNumber.percent(rollout.share, decimals: 1))) "
            + "of people, the current layout <code>\(esc(rollout.oldMenuVersion))</code> for the rest"
        if let last = rollout.looks.last {
            out += "; \(last.oldPeople) people on the current layout and \(last.newPeople) on the rollout so far.</p>\n"
            let kind: String
            switch last.verdict {
            case .better: kind = "better"
            case .worse: kind = "worse"
            case .sampleRatioMismatch: kind = "mismatch"
            case .noDifferenceYet: kind = "none"
            }
            out += "<p class=\"rollout-verdict \(kind)\">\(esc(last.verdict.rawValue)): \(esc(last.reason))</p>\n"
            out += chart(rollout, metric: .medianLatency, title: "Median selection latency, rollout minus current (ms)",
                         scale: 1, unit: "ms")
            out += chart(rollout, metric: .dismissalRate, title: "Dismissal rate, rollout minus current (points)",
                         scale: 100, unit: "pt")
        } else {
            out += ".</p>\n<p>No events of either arm since the share was set.</p>\n"
        }
        return out + "</article>\n"
    }

    func chart(_ rollout: RolloutView, metric: ExperimentMetric, title: String, scale: Double, unit: String) -> String {
        let points = rollout.looks.compactMap { look -> (day: CivilDate, estimate: Double, lower: Double, upper: Double)? in
            guard let comparison = look.metrics[metric], let interval = comparison.difference,
                  interval.lower.isFinite, interval.upper.isFinite
            else { return nil }
            return (look.day, (comparison.new - comparison.old) * scale, interval.lower * scale, interval.upper * scale)
        }
        let id = "rollout-\(rollout.id)-\(metric.rawValue)"
        guard let first = points.first, let last = points.last else {
            return "<p>\(esc(title)): no interval yet (each arm needs 30 people and 200 selections).</p>\n"
        }
        let (x0, x1, y0, y1) = (88.0, Self.width - 48, Self.height - 44, 28.0)
        var low = min(0, points.map { $0.lower }.min()!), high = max(0, points.map { $0.upper }.max()!)
        if high - low < 1e-9 { (low, high) = (low - 1, high + 1) }
        let pad = (high - low) * 0.08
        (low, high) = (low - pad, high + pad)
        let span = max(first.day.distance(to: last.day), 1)
        func x(_ day: CivilDate) -> Double {
            points.count == 1 ? (x0 + x1) / 2 : x0 + (x1 - x0) * Double(first.day.distance(to: day)) / Double(span)
        }
        func y(_ v: Double) -> Double { y0 - (y0 - y1) * (v - low) / (high - low) }

        var svg = "<svg class=\"chart\" id=\"\(id)\" viewBox=\"0 0 \(f(Self.width)) \(f(Self.height))\" width=\"\(f(Self.width))\" "
            + "height=\"\(f(Self.height))\" role=\"img\" aria-labelledby=\"\(id)-title\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            + "<title id=\"\(id)-title\">\(esc(title))</title>\n"
            + "<text class=\"chart-title\" x=\"\(f(Self.width / 2))\" y=\"16\" text-anchor=\"middle\">\(esc(title))</text>\n"
        // y axis with five ticks and gridlines; x axis with the first, middle and last day.
        svg += "<g class=\"y-axis\"><line class=\"axis\" x1=\"\(f(x0))\" y1=\"\(f(y1))\" x2=\"\(f(x0))\" y2=\"\(f(y0))\"/>\n"
        for i in 0...4 {
            let v = low + (high - low) * Double(i) / 4
            svg += "<g class=\"tick\"><line class=\"gridline\" x1=\"\(f(x0 - 4))\" y1=\"\(f(y(v)))\" x2=\"\(f(x1))\" y2=\"\(f(y(v)))\"/>"
                + "<text x=\"\(f(x0 - 8))\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\">\(esc(String(format: "%+.1f", v)))</text></g>\n"
        }
        svg += "</g>\n<g class=\"x-axis\"><line class=\"axis\" x1=\"\(f(x0))\" y1=\"\(f(y0))\" x2=\"\(f(x1))\" y2=\"\(f(y0))\"/>\n"
        for day in Array(Set([first.day, first.day.adding(days: span / 2), last.day])).sorted() {
            svg += "<g class=\"tick\"><line class=\"axis\" x1=\"\(f(x(day)))\" y1=\"\(f(y0))\" x2=\"\(f(x(day)))\" y2=\"\(f(y0 + 4))\"/>"
                + "<text x=\"\(f(x(day)))\" y=\"\(f(y0 + 16))\" text-anchor=\"middle\">\(esc(ReportDate.day(day)))</text></g>\n"
        }
        svg += "</g>\n"
        let midY = (y0 + y1) / 2
        svg += "<text class=\"axis-label x-label\" x=\"\(f((x0 + x1) / 2))\" y=\"\(f(y0 + 36))\" text-anchor=\"middle\">Day (each a look)</text>\n"
            + "<text class=\"axis-label y-label\" x=\"14\" y=\"\(f(midY))\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 14 \(f(midY)))\">\(esc("rollout − current (\(unit))"))</text>\n"
        svg += "<line class=\"zero\" x1=\"\(f(x0))\" y1=\"\(f(y(0)))\" x2=\"\(f(x1))\" y2=\"\(f(y(0)))\"/>\n"
        let upper = points.map { "\(f(x($0.day))),\(f(y($0.upper)))" }
        let lower = points.reversed().map { "\(f(x($0.day))),\(f(y($0.lower)))" }
        if points.count == 1 {
            svg += "<line class=\"estimate\" x1=\"\(f(x(first.day)))\" y1=\"\(f(y(first.lower)))\" x2=\"\(f(x(first.day)))\" "
                + "y2=\"\(f(y(first.upper)))\"/>\n"
        } else {
            svg += "<polygon class=\"band\" points=\"\((upper + lower).joined(separator: " "))\"/>\n"
        }
        svg += "<polyline class=\"estimate\" points=\"\(points.map { "\(f(x($0.day))),\(f(y($0.estimate)))" }.joined(separator: " "))\"/>\n"
        for point in points {
            svg += "<circle class=\"estimate-point\" cx=\"\(f(x(point.day)))\" cy=\"\(f(y(point.estimate)))\" r=\"2.5\" fill=\"#1a73e8\">"
                + "<title>\(esc(ReportDate.day(point.day))): \(esc(String(format: "%+.1f (%+.1f to %+.1f) %@", point.estimate, point.lower, point.upper, unit)))</title></circle>\n"
        }
        svg += "<g class=\"legend\"><rect x=\"\(f(x1 - 256))\" y=\"30\" width=\"254\" height=\"34\" fill=\"#ffffff\" opacity=\"0.9\"/>"
            + "<rect x=\"\(f(x1 - 250))\" y=\"34\" width=\"12\" height=\"8\" class=\"band\"/>"
            + "<text x=\"\(f(x1 - 232))\" y=\"42\">95% always-valid interval</text>"
            + "<line class=\"estimate\" x1=\"\(f(x1 - 250))\" y1=\"54\" x2=\"\(f(x1 - 238))\" y2=\"54\"/>"
            + "<text x=\"\(f(x1 - 232))\" y=\"58\">difference so far</text></g>\n</svg>\n"
        let caption = "Each day's look at the difference between the arms since the share was set; below zero the rollout "
            + "layout is lower. The shaded band is the interval that stays valid however often it is looked at."
        return "<figure class=\"rollout-chart\" data-chart=\"\(metric.rawValue)\">\n\(svg)<figcaption>\(esc(caption))</figcaption>\n</figure>\n"
    }

    private func f(_ x: Double) -> String { ReportNumber.decimal(x, decimals: 1, trimmingZeros: true) }
    private func esc(_ text: String) -> String { HTMLText.escaped(text) }
}
