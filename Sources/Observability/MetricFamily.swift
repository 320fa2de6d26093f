/// All series of one metric name: its help, type and, for histograms, bucket bounds.
struct MetricFamily: Sendable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    enum Series: Sendable {
        case counter(Counter)
        case gauge(Gauge)
        case histogram(Histogram)
    }

    let help: String
    let type: Kind
    let bounds: [Double]
    var series: [MetricLabels: Series] = [:]
}
