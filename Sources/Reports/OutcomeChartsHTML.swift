import Escaping
import Foundation
public import Outcomes

/// The outcome section of the HTML report: per element type, the selection-latency distribution of
/// each menu version (share of selections per log-spaced latency bin, the median and its 95%
/// interval marked) and the dismissal rate of each version with its 95% Wilson interval, then each
/// accepted layout's comparison with its predecessor. Inline SVG, no scripts; every chart has both
/// axes with ticks and a label, a title and a legend, so it reads without the surrounding text.
public struct OutcomeChartsHTML: Sendable {
    public init() {}

    static let palette = ["#1a73e8", "#d93025", "#188038", "#f29900", "#9334e6", "#12b5cb"]
    static let width = 640.0, height = 260.0
    static let css = """
        .outcome-chart { margin: 0.8em 0 1.4em; }
        .outcome-chart figcaption { color: #424245; font-size: 0.9em; }
        .chart .gridline { stroke: #ececf0; }
        .chart .axis-label { font-weight: 600; }
        .chart .median-band { opacity: 0.18; }
        .chart .series polyline { fill: none; stroke-width: 2; }
        .verdict { font-weight: 600; }
        .verdict.faster { color: #188038; } .verdict.slower { color: #d93025; }
        """

    /// The section for a whole outcome report (an `<h2>` and one block per element type).
    public func section(_ report: OutcomeReport) -> String {
        var out = "<section class=\"outcomes\">\n<style>\n\(Self.css)\n</style>\n"
        out += "<h2>Outcomes by menu version, \(esc(ReportDate.day(report.windowFrom))) to "
            + "\(esc(ReportDate.day(report.windowTo)))</h2>\n"
        if report.elementTypes.isEmpty {
            out += "<p>No menu opens in the window: apps report outcomes by sending <code>menu_version</code>, "
                + "<code>position</code> and <code>latency_ms</code> with their events.</p>\n"
        }
        for (index, element) in report.elementTypes.enumerated() {
            out += "<h3><code>\(esc(element.elementType))</code></h3>\n"
            out += latencyChart(element, id: "outcome-latency-\(index + 1)")
            out += dismissalChart(element, id: "outcome-dismissal-\(index + 1)")
            for comparison in element.comparisons {
                let lines = OutcomeReportRenderer.comparisonLines(comparison)
                let verdict = comparison.comparison.verdict
                let cls = verdict == .faster ? "faster" : verdict == .slower ? "slower" : "none"
                out += "<p><span class=\"verdict \(cls)\">\(esc(verdict.rawValue))</span>: "
                    + lines.map(esc).joined(separator: "<br>\n") + "</p>\n"
            }
        }
        return out + "</section>\n"
    }

    private func label(_ v: VersionOutcome) -> String {
        switch v.status {
        case .known(let layoutVersion, _): return "\(v.menuVersion) (v\(layoutVersion))"
        case .rollout(let rolloutID, _): return "\(v.menuVersion) (rollout #\(rolloutID))"
        case .unknown: return "\(v.menuVersion) (unknown)"
        case .notSent: return "(not sent)"
        }
    }

    // MARK: - Latency distribution

    func latencyChart(_ element: ElementOutcomes, id: String) -> String {
        let versions = element.versions.filter { $0.tally.latency.total > 0 }
        guard !versions.isEmpty else {
            return "<p>No selection latencies reported for this element type.</p>\n"
        }
        var low = Double.infinity, high = 0.0
        for v in versions {
            let h = v.tally.latency
            low = min(low, h.value(atRank: 0.01 * Double(h.total)) ?? 1)
            high = max(high, h.value(atRank: 0.99 * Double(h.total)) ?? 1)
        }
        low = max(1, low)
        high = max(high, low * 2)
        let (x0, x1, y0, y1) = (64.0, Self.width - 16, Self.height - 44, 28.0)
        let logLow = log10(low), logHigh = log10(high)
        func x(_ ms: Double) -> Double { x0 + (x1 - x0) * (log10(min(max(ms, low), high)) - logLow) / (logHigh - logLow) }
        let bins = 32
        let edges = (0...bins).map { pow(10, logLow + (logHigh - logLow) * Double($0) / Double(bins)) }
        let shares = versions.map { Self.binShares($0.tally.latency, edges: edges) }
        let top = Self.niceCeiling(max(shares.flatMap { $0 }.max() ?? 0.01, 0.001))
        func y(_ share: Double) -> Double { y0 - (y0 - y1) * share / top }

        var svg = svgOpen(id: id, title: "Selection latency by menu version")
        // Axes: x (log latency) with 1-2-5 ticks, y (share of selections).
        svg += "<g class=\"x-axis\">\n<line class=\"axis\" x1=\"\(f(x0))\" y1=\"\(f(y0))\" x2=\"\(f(x1))\" y2=\"\(f(y0))\"/>\n"
        for tick in Self.logTicks(low: low, high: high) {
            svg += "<g class=\"tick\"><line class=\"axis\" x1=\"\(f(x(tick)))\" y1=\"\(f(y0))\" x2=\"\(f(x(tick)))\" "
                + "y2=\"\(f(y0 + 4))\"/><text x=\"\(f(x(tick)))\" y=\"\(f(y0 + 16))\" text-anchor=\"middle\">"
                + "\(esc(Self.duration(tick)))</text></g>\n"
        }
        svg += "</g>\n"
        svg += yAxis(top: top, x0: x0, x1: x1, y: y, percent: true)
        svg += axisLabels(x: "Selection latency (log scale)", y: "Share of selections", x0: x0, x1: x1, y0: y0, y1: y1)
        for (i, v) in versions.enumerated() {
            let colour = Self.palette[i % Self.palette.count]
            var points: [String] = []
            for b in 0..<bins {
                points.append("\(f(x(edges[b]))),\(f(y(shares[i][b])))")
                points.append("\(f(x(edges[b + 1]))),\(f(y(shares[i][b])))")
            }
            svg += "<g class=\"series\" data-version=\"\(esc(v.menuVersion))\">\n"
            if let median = v.tally.medianLatency {
                svg += "<rect class=\"median-band\" x=\"\(f(x(median.lower)))\" y=\"\(f(y1))\" "
                    + "width=\"\(f(max(1, x(median.upper) - x(median.lower))))\" height=\"\(f(y0 - y1))\" fill=\"\(colour)\">"
                    + "<title>median \(esc(OutcomeReportRenderer.quantile(median))) ms</title></rect>\n"
                svg += "<line class=\"median\" x1=\"\(f(x(median.estimate)))\" y1=\"\(f(y1))\" x2=\"\(f(x(median.estimate)))\" "
                    + "y2=\"\(f(y0))\" stroke=\"\(colour)\" stroke-dasharray=\"4 3\"/>\n"
            }
            svg += "<polyline points=\"\(points.joined(separator: " "))\" stroke=\"\(colour)\"/>\n</g>\n"
        }
        svg += legend(versions.map(label), x: x1 - 200, y: y1)
        svg += "</svg>\n"
        let caption = "Share of each version's selections per latency bin; the dashed line is the median and the "
            + "shaded band its 95% interval."
        return figure(svg, kind: "latency", caption: caption)
    }

    /// The share of a histogram's latencies in each bin [edges[i], edges[i + 1]), spreading each
    /// bucket evenly over its width.
    static func binShares(_ histogram: LatencyHistogram, edges: [Double]) -> [Double] {
        var shares = [Double](repeating: 0, count: edges.count - 1)
        guard histogram.total > 0 else { return shares }
        let total = Double(histogram.total)
        for (bucket, count) in histogram.sortedBuckets {
            let (lower, upper) = LatencyHistogram.range(of: bucket)
            for i in shares.indices {
                let overlap = min(upper, edges[i + 1]) - max(lower, edges[i])
                if overlap > 0 { shares[i] += Double(count) * overlap / (upper - lower) / total }
            }
        }
        return shares
    }

    // MARK: - Dismissal rate

    func dismissalChart(_ element: ElementOutcomes, id: String) -> String {
        let versions = element.versions.filter { $0.tally.opens > 0 }
        guard !versions.isEmpty else { return "" }
        let rowHeight = 26.0
        let (x0, x1, y1) = (180.0, Self.width - 24, 28.0)
        let y0 = y1 + rowHeight * Double(versions.count) + 8
        let top = Self.niceCeiling(max(versions.map { $0.tally.dismissalRate.upper }.max() ?? 0.01, 0.01))
        func x(_ rate: Double) -> Double { x0 + (x1 - x0) * min(rate, top) / top }
        var svg = svgOpen(id: id, title: "Dismissal rate by menu version", height: y0 + 44)
        svg += "<g class=\"x-axis\">\n<line class=\"axis\" x1=\"\(f(x0))\" y1=\"\(f(y0))\" x2=\"\(f(x1))\" y2=\"\(f(y0))\"/>\n"
        for tick in Self.linearTicks(top: top) {
            svg += "<g class=\"tick\"><line class=\"gridline\" x1=\"\(f(x(tick)))\" y1=\"\(f(y1))\" x2=\"\(f(x(tick)))\" "
                + "y2=\"\(f(y0 + 4))\"/><text x=\"\(f(x(tick)))\" y=\"\(f(y0 + 16))\" text-anchor=\"middle\">"
                + "\(esc(ReportNumber.percent(tick, decimals: tick < 0.1 ? 1 : 0)))</text></g>\n"
        }
        svg += "</g>\n<g class=\"y-axis\">\n<line class=\"axis\" x1=\"\(f(x0))\" y1=\"\(f(y1))\" x2=\"\(f(x0))\" y2=\"\(f(y0))\"/>\n"
        for (i, v) in versions.enumerated() {
            let cy = y1 + rowHeight * (Double(i) + 0.5)
            svg += "<g class=\"tick\"><text x=\"\(f(x0 - 8))\" y=\"\(f(cy + 4))\" text-anchor=\"end\">\(esc(label(v)))</text></g>\n"
        }
        svg += "</g>\n"
        svg += axisLabels(x: "Dismissal rate (95% Wilson interval)", y: "Menu version", x0: x0, x1: x1, y0: y0, y1: y1,
                          yLabelX: 14)
        for (i, v) in versions.enumerated() {
            let rate = v.tally.dismissalRate
            let cy = y1 + rowHeight * (Double(i) + 0.5)
            let colour = Self.palette[i % Self.palette.count]
            svg += "<g class=\"series\" data-version=\"\(esc(v.menuVersion))\">"
                + "<rect class=\"bar\" x=\"\(f(x0))\" y=\"\(f(cy - 8))\" width=\"\(f(max(1, x(rate.estimate) - x0)))\" "
                + "height=\"16\" style=\"fill: \(colour)\"><title>\(esc(OutcomeReportRenderer.rate(v.tally))) of "
                + "\(v.tally.opens) opens</title></rect>"
                + "<line class=\"whisker\" x1=\"\(f(x(rate.lower)))\" y1=\"\(f(cy))\" x2=\"\(f(x(rate.upper)))\" y2=\"\(f(cy))\"/>"
                + "<line class=\"whisker\" x1=\"\(f(x(rate.lower)))\" y1=\"\(f(cy - 5))\" x2=\"\(f(x(rate.lower)))\" y2=\"\(f(cy + 5))\"/>"
                + "<line class=\"whisker\" x1=\"\(f(x(rate.upper)))\" y1=\"\(f(cy - 5))\" x2=\"\(f(x(rate.upper)))\" y2=\"\(f(cy + 5))\"/>"
                + "</g>\n"
        }
        svg += "</svg>\n"
        return figure(svg, kind: "dismissal", caption: "Dismissals per menu open; whiskers show the 95% Wilson interval.")
    }

    // MARK: - Pieces

    private func svgOpen(id: String, title: String, height: Double = height) -> String {
        "<svg class=\"chart\" id=\"\(id)\" viewBox=\"0 0 \(f(Self.width)) \(f(height))\" width=\"\(f(Self.width))\" "
            + "height=\"\(f(height))\" role=\"img\" aria-labelledby=\"\(id)-title\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            + "<title id=\"\(id)-title\">\(esc(title))</title>\n"
            + "<text class=\"chart-title\" x=\"\(f(Self.width / 2))\" y=\"16\" text-anchor=\"middle\">\(esc(title))</text>\n"
    }

    private func figure(_ svg: String, kind: String, caption: String) -> String {
        "<figure class=\"outcome-chart\" data-chart=\"\(kind)\">\n\(svg)<figcaption>\(esc(caption))</figcaption>\n</figure>\n"
    }

    private func yAxis(top: Double, x0: Double, x1: Double, y: (Double) -> Double, percent: Bool) -> String {
        var svg = "<g class=\"y-axis\">\n<line class=\"axis\" x1=\"\(f(x0))\" y1=\"\(f(y(top)))\" x2=\"\(f(x0))\" y2=\"\(f(y(0)))\"/>\n"
        for tick in Self.linearTicks(top: top) {
            let text = ReportNumber.percent(tick, decimals: top < 0.05 ? 1 : 0)
            svg += "<g class=\"tick\"><line class=\"gridline\" x1=\"\(f(x0 - 4))\" y1=\"\(f(y(tick)))\" x2=\"\(f(x1))\" "
                + "y2=\"\(f(y(tick)))\"/><text x=\"\(f(x0 - 8))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(esc(text))</text></g>\n"
        }
        return svg + "</g>\n"
    }

    private func axisLabels(x: String, y: String, x0: Double, x1: Double, y0: Double, y1: Double,
                            yLabelX: Double = 14) -> String
    {
        let midY = (y0 + y1) / 2
        return "<text class=\"axis-label x-label\" x=\"\(f((x0 + x1) / 2))\" y=\"\(f(y0 + 36))\" text-anchor=\"middle\">"
            + "\(esc(x))</text>\n"
            + "<text class=\"axis-label y-label\" x=\"\(f(yLabelX))\" y=\"\(f(midY))\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 \(f(yLabelX)) \(f(midY)))\">\(esc(y))</text>\n"
    }

    private func legend(_ labels: [String], x: Double, y: Double) -> String {
        var svg = "<g class=\"legend\">\n"
        for (i, text) in labels.enumerated() {
            let ly = y + 6 + Double(i) * 16
            svg += "<g class=\"legend-item\"><rect x=\"\(f(x))\" y=\"\(f(ly))\" width=\"12\" height=\"4\" "
                + "fill=\"\(Self.palette[i % Self.palette.count])\"/><text x=\"\(f(x + 18))\" y=\"\(f(ly + 6))\">"
                + "\(esc(text))</text></g>\n"
        }
        return svg + "</g>\n"
    }

    /// The smallest 1-2-5 multiple of a power of ten at or above `x`.
    static func niceCeiling(_ x: Double) -> Double {
        let power = pow(10, (log10(x)).rounded(.down))
        for m in [1.0, 2, 2.5, 5, 10] where m * power >= x * 0.999_999 { return m * power }
        return 10 * power
    }

    /// Four or five evenly spaced ticks from 0 to `top`.
    static func linearTicks(top: Double) -> [Double] {
        let step = niceCeiling(top / 5)
        var ticks: [Double] = []
        var t = 0.0
        while t <= top * 1.000_001 {
            ticks.append(t)
            t += step
        }
        return ticks
    }

    /// 1, 2, 5 times powers of ten between `low` and `high`.
    static func logTicks(low: Double, high: Double) -> [Double] {
        var ticks: [Double] = []
        var power = pow(10, log10(low).rounded(.down))
        while power <= high {
            for m in [1.0, 2, 5] where m * power >= low && m * power <= high { ticks.append(m * power) }
            power *= 10
        }
        return ticks
    }

    static func duration(_ ms: Double) -> String {
        ms >= 1000 ? ReportNumber.decimal(ms / 1000, decimals: 1, trimmingZeros: true) + " s"
            : ReportNumber.decimal(ms, decimals: 0) + " ms"
    }

    private func f(_ x: Double) -> String { ReportNumber.decimal(x, decimals: 1, trimmingZeros: true) }
    private func esc(_ text: String) -> String { HTMLText.escaped(text) }
}
