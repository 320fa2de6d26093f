/// How often each value occurs, counted as the values come: for an outcome tally's positions and
/// latency buckets, which are small non-negative numbers. Those below `denseLimit` are counted in
/// an array over the range of them seen so far (a tally's latency buckets lie within a few dozen
/// of each other, far from 0: the array stays small, so a day with thousands of tallies keeps
/// them in cache); any other in a dictionary. Memory follows the distinct values, not how many
/// were counted.
struct SmallCounts: Sendable, Equatable {
    static let denseLimit: Int32 = 1024

    /// The counts of the values `low`, `low + 1`, … (all below `denseLimit`).
    private var low: Int32 = 0
    private var dense: [Int64] = []
    private var sparse: [Int32: Int64] = [:]

    @inline(__always)
    mutating func add(_ value: Int32, count: Int64 = 1) {
        let at = Int(value) - Int(low)
        if at >= 0, at < dense.count {
            dense[at] += count
        } else {
            addOutside(value, count: count)
        }
    }

    /// `add` for a value outside the range counted densely so far: the range grows to take it, or
    /// the value goes to the dictionary.
    private mutating func addOutside(_ value: Int32, count: Int64) {
        guard value >= 0, value < Self.denseLimit else {
            sparse[value, default: 0] += count
            return
        }
        if dense.isEmpty {
            low = value
            dense = [count]
        } else if value < low {
            dense.insert(contentsOf: repeatElement(0, count: Int(low - value)), at: 0)
            low = value
            dense[0] += count
        } else {
            dense.append(contentsOf: repeatElement(0, count: Int(value - low) + 1 - dense.count))
            dense[Int(value - low)] += count
        }
    }

    mutating func merge(_ other: SmallCounts) {
        for (offset, count) in other.dense.enumerated() where count > 0 { add(other.low + Int32(offset), count: count) }
        for (value, count) in other.sparse { add(value, count: count) }
    }

    /// The values counted, ascending, with how often each occurred.
    var histogram: (values: [Int32], counts: [Int64]) {
        var pairs: [(Int32, Int64)] = sparse.map { ($0.key, $0.value) }
        for (offset, count) in dense.enumerated() where count > 0 { pairs.append((low + Int32(offset), count)) }
        pairs.sort { $0.0 < $1.0 }
        return (pairs.map(\.0), pairs.map(\.1))
    }

    /// Equal when they counted the same values as often (however the values came).
    static func == (lhs: SmallCounts, rhs: SmallCounts) -> Bool {
        let (left, right) = (lhs.histogram, rhs.histogram)
        return left.values == right.values && left.counts == right.counts
    }
}
