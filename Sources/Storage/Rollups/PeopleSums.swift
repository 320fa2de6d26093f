import Ranking

/// Per slot of a `PartTotals` (a key of a block, a window or a part of one), the sum of its rows'
/// splits by person bucket (`people`, sql/0020), held flat (`PeopleCounts.flatCount` whole counts
/// a slot, in one array for all slots: no allocation per row or key). A slot with a row of
/// unknown split (stored before buckets were: empty bytes) is unknown as a whole, as
/// `PeopleCounts.add` makes a window with such a day.
struct PeopleSums {
    private var counts: [Int64] = []
    private var unknown: [Bool] = []
    private let width = PeopleCounts.flatCount

    /// Adds one row's stored split to `slot` (nil: the row's people were not read, or NULL).
    /// - Throws: `StorageError` for bytes that are no split.
    mutating func add(_ bytes: UnsafeRawBufferPointer?, slot: Int) throws(StorageError) {
        if slot >= unknown.count {
            counts.append(contentsOf: repeatElement(0, count: (slot + 1 - unknown.count) * width))
            unknown.append(contentsOf: repeatElement(false, count: slot + 1 - unknown.count))
        }
        guard let bytes, !bytes.isEmpty else {
            unknown[slot] = true
            return
        }
        let added = counts.withUnsafeMutableBufferPointer { counts in
            PeopleCounts.add(encoded: bytes, into: UnsafeMutableBufferPointer(rebasing: counts[slot * width..<(slot + 1) * width]))
        }
        guard added else { throw StorageError(.database, "a rollup row's people split is not one (\(bytes.count) bytes)") }
    }

    /// The split of `slot`: unknown when a row of it was, or when no row of it was added.
    func split(_ slot: Int) -> PeopleCounts {
        guard slot < unknown.count, !unknown[slot] else { return .unknown }
        return counts.withUnsafeBufferPointer { PeopleCounts(flat: UnsafeBufferPointer(rebasing: $0[slot * width..<(slot + 1) * width])) }
    }

    /// `split(slot)` as stored (empty: unknown).
    func encoded(_ slot: Int) -> [UInt8] {
        guard slot < unknown.count, !unknown[slot] else { return [] }
        return counts.withUnsafeBufferPointer { PeopleCounts.encode(flat: UnsafeBufferPointer(rebasing: $0[slot * width..<(slot + 1) * width])) }
    }
}
