import Ranking

/// Per slot of a `PartTotals` (a key of a block, a window or a part of one), the sum of its rows'
/// splits by person bucket (`people`, sql/0020), held flat (`PeopleCounts.flatCount` whole counts
/// a slot, in chunks of `chunkSlots` slots: no allocation per row or key). A slot with a row of
/// unknown split (stored before buckets were: empty bytes) is unknown as a whole, as
/// `PeopleCounts.add` makes a window with such a day.
///
/// Chunks, not one array for all slots: a slot is a kilobyte of counts, so a window of 9,000 keys
/// is 9 MB, which one array grown as the keys come copied about once more and touched in twice
/// the pages (the page faults and the copies were 1-2% of a night's client CPU); a chunk, once
/// made, never moves.
struct PeopleSums {
    private var chunks: [[Int64]] = []
    private var unknown: [Bool] = []
    private let width = PeopleCounts.flatCount
    /// Slots per chunk (64 kB of counts).
    static let chunkSlots = 64

    /// Adds one row's stored split to `slot` (nil: the row's people were not read, or NULL).
    /// - Throws: `StorageError` for bytes that are no split.
    mutating func add(_ bytes: UnsafeRawBufferPointer?, slot: Int) throws(StorageError) {
        if slot >= unknown.count {
            unknown.append(contentsOf: repeatElement(false, count: slot + 1 - unknown.count))
            while chunks.count * Self.chunkSlots <= slot {
                chunks.append([Int64](repeating: 0, count: Self.chunkSlots * width))
            }
        }
        guard let bytes, !bytes.isEmpty else {
            unknown[slot] = true
            return
        }
        let start = slot % Self.chunkSlots * width
        let added = chunks[slot / Self.chunkSlots].withUnsafeMutableBufferPointer { counts in
            PeopleCounts.add(encoded: bytes, into: UnsafeMutableBufferPointer(rebasing: counts[start..<start + width]))
        }
        guard added else { throw StorageError(.database, "a rollup row's people split is not one (\(bytes.count) bytes)") }
    }

    /// The split of `slot`: unknown when a row of it was, or when no row of it was added.
    func split(_ slot: Int) -> PeopleCounts {
        guard slot < unknown.count, !unknown[slot] else { return .unknown }
        let start = slot % Self.chunkSlots * width
        return chunks[slot / Self.chunkSlots].withUnsafeBufferPointer {
            PeopleCounts(flat: UnsafeBufferPointer(rebasing: $0[start..<start + width]))
        }
    }

    /// `split(slot)` as stored (empty: unknown).
    func encoded(_ slot: Int) -> [UInt8] {
        guard slot < unknown.count, !unknown[slot] else { return [] }
        let start = slot % Self.chunkSlots * width
        return chunks[slot / Self.chunkSlots].withUnsafeBufferPointer {
            PeopleCounts.encode(flat: UnsafeBufferPointer(rebasing: $0[start..<start + width]))
        }
    }
}
