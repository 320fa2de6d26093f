/// The label set of one series, sorted by name so equal sets compare and render the same.
struct MetricLabels: Hashable, Sendable, Comparable {
    let pairs: [(name: String, value: String)]

    init(_ labels: [String: String]) {
        pairs = labels.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    static func == (lhs: MetricLabels, rhs: MetricLabels) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    static func < (lhs: MetricLabels, rhs: MetricLabels) -> Bool {
        lhs.rendered() < rhs.rendered()
    }

    func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.name)
            hasher.combine(pair.value)
        }
    }

    /// `{a="1",b="2"}` with `extra` pairs last (`le` for buckets), or nothing when empty.
    func rendered(adding extra: [(name: String, value: String)] = []) -> String {
        let all = pairs + extra
        guard !all.isEmpty else { return "" }
        return "{" + all.map { $0.name + "=\"" + PrometheusText.escapeLabelValue($0.value) + "\"" }
            .joined(separator: ",") + "}"
    }
}
