/// How often each value occurs, counted as the values come: for an outcome tally's positions and
/// latency buckets, which are small non-negative numbers. Those below `denseLimit` are counted in
/// an array indexed by the value; any other in a dictionary. Memory follows the distinct values,
/// not how many were counted.
struct SmallCounts: Sendable, Equatable {
    static let denseLimit: Int32 = 1024

    private var dense: [Int64] = []
    private var sparse: [Int32: Int64] = [:]

    mutating func add(_ value: Int32, count: Int64 = 1) {
        if value >= 0, value < Self.denseLimit {
            let at = Int(value)
            if at >= dense.count { dense.append(contentsOf: repeatElement(0, count: at + 1 - dense.count)) }
            dense[at] += count
        } else {
            sparse[value, default: 0] += count
        }
    }

    mutating func merge(_ other: SmallCounts) {
        for (value, count) in other.dense.enumerated() where count > 0 { add(Int32(value), count: count) }
        for (value, count) in other.sparse { add(value, count: count) }
    }

    /// The values counted, ascending, with how often each occurred.
    var histogram: (values: [Int32], counts: [Int64]) {
        var pairs: [(Int32, Int64)] = sparse.map { ($0.key, $0.value) }
        for (value, count) in dense.enumerated() where count > 0 { pairs.append((Int32(value), count)) }
        pairs.sort { $0.0 < $1.0 }
        return (pairs.map(\.0), pairs.map(\.1))
    }
}
