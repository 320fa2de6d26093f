import Locking

/// The metrics of a process: counters, gauges and histograms by name and label set, rendered in the
/// Prometheus text format for `GET /metrics`.
///
/// Registering returns a handle; keep it and update it on the hot path (one atomic operation, no
/// lock, no lookup). Registering the same name and labels again returns the same handle. Names are
/// Prometheus names (convert OpenTelemetry names with `MetricName.prometheus(_:unit:)`); counter
/// names get `_total` appended unless they end with it. Label values must come from a bounded set:
/// route templates (`/v1/menus/{element_type}`), never raw paths.
public final class MetricsRegistry: Sendable {
    private let families = Locked<[String: MetricFamily]>([:])

    public init() {}

    public func counter(_ name: String, help: String, labels: [String: String] = [:]) -> Counter {
        let fullName = name.hasSuffix("_total") ? name : name + "_total"
        let series = register(fullName, help: help, type: .counter, bounds: [], labels: labels) { _ in .counter(Counter()) }
        guard case .counter(let counter) = series else { preconditionFailure() }
        return counter
    }

    public func gauge(_ name: String, help: String, labels: [String: String] = [:]) -> Gauge {
        let series = register(name, help: help, type: .gauge, bounds: [], labels: labels) { _ in .gauge(Gauge()) }
        guard case .gauge(let gauge) = series else { preconditionFailure() }
        return gauge
    }

    /// A histogram with ascending, finite upper `buckets` (`+Inf` is implicit); every series of a
    /// name has the buckets it was first registered with.
    public func histogram(_ name: String, help: String, labels: [String: String] = [:],
                          buckets: [Double] = Histogram.defaultSecondsBuckets) -> Histogram {
        precondition(!buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 }
                     && buckets.allSatisfy(\.isFinite), "histogram buckets must be ascending and finite")
        precondition(labels["le"] == nil, "'le' is reserved for histogram buckets")
        let series = register(name, help: help, type: .histogram, bounds: buckets, labels: labels) { bounds in
            .histogram(Histogram(bounds: bounds))
        }
        guard case .histogram(let histogram) = series else { preconditionFailure() }
        return histogram
    }

    /// Every series in the Prometheus text exposition format: families by name, each with its HELP
    /// and TYPE lines, series ordered by labels; histograms as cumulative `_bucket{le=...}`, `_sum`
    /// and `_count`.
    public func render() -> String {
        let snapshot = families.withLock { $0 }
        var text = ""
        for name in snapshot.keys.sorted() {
            guard let family = snapshot[name] else { continue }
            text += "# HELP \(name) \(PrometheusText.escapeHelp(family.help))\n"
            text += "# TYPE \(name) \(family.type.rawValue)\n"
            for labels in family.series.keys.sorted() {
                guard let series = family.series[labels] else { continue }
                switch series {
                case .counter(let counter):
                    text += "\(name)\(labels.rendered()) \(counter.value)\n"
                case .gauge(let gauge):
                    text += "\(name)\(labels.rendered()) \(PrometheusText.number(gauge.value))\n"
                case .histogram(let histogram):
                    let (cumulative, sum) = histogram.snapshot
                    let bounds = histogram.bounds.map(PrometheusText.number) + ["+Inf"]
                    for (bound, count) in zip(bounds, cumulative) {
                        text += "\(name)_bucket\(labels.rendered(adding: [("le", bound)])) \(count)\n"
                    }
                    text += "\(name)_sum\(labels.rendered()) \(PrometheusText.number(sum))\n"
                    text += "\(name)_count\(labels.rendered()) \(cumulative.last ?? 0)\n"
                }
            }
        }
        return text
    }

    private func register(_ name: String, help: String, type: MetricFamily.Kind, bounds: [Double],
                          labels: [String: String], make: ([Double]) -> MetricFamily.Series) -> MetricFamily.Series {
        precondition(PrometheusText.isValidMetricName(name), "invalid metric name '\(name)'")
        for label in labels.keys {
            precondition(PrometheusText.isValidLabelName(label), "invalid label name '\(label)' on '\(name)'")
        }
        let key = MetricLabels(labels)
        return families.withLock { families in
            var family = families[name] ?? MetricFamily(help: help, type: type, bounds: bounds)
            precondition(family.type == type, "'\(name)' is already registered as a \(family.type.rawValue)")
            if let existing = family.series[key] { return existing }
            let series = make(family.bounds)
            family.series[key] = series
            families[name] = family
            return series
        }
    }
}
