import Locking
import Sketches

/// The rows of a window's parts (`RollupSpan.rows`, read as they are stored) folded by key in
/// Swift: per key and part the counts summed, and the key's sketches united into its distinct
/// users, exactly as `sum(...)` and `hll_cardinality(hll_union_agg(users))` give them in SQL.
///
/// Why not in SQL: there the union sorts 27,000 rows with their sketches and unites them in a
/// group aggregate, about 600 ms of server time per connection at 1,000 element types, most of it
/// postgresql-hll sorting the lists it unites (see docs/benchmarks.md). Here a row costs a lookup
/// in a table of integer keys and a note of where its sketch lies in the result (the result is
/// held until the unions are done: `PostgresConnection.queryBinary(_:_:then:)`); the unions run
/// afterwards, key after key with one `HLLUnion` per thread, on `workers` threads, each over a
/// slice of the keys. (A union per key, filled as the rows come, held about 30 MB more at 1,000
/// element types, and a copy of the sketches' bytes took as many page faults as the result.)
///
/// The sketches are not copied: `addSketch` keeps the address of the bytes, which must stay
/// valid until `cardinalities` returns.
struct PartTotals {
    /// The keys in the order first seen.
    private(set) var keys: [Int64] = []
    /// Open addressing over `keys`: slot + 1, 0 for an empty bucket; a power of two, at most half full.
    private var buckets = [Int32](repeating: 0, count: 1 << 10)
    /// Per key, `countColumns * parts` sums: column-major within the key (`column * parts + part`).
    private var sums: [Int] = []
    /// The sketches to unite, each with its key's slot.
    private var sketches: [SketchBytes] = []
    private var sketchSlots: [Int32] = []
    let countColumns: Int
    let parts: Int

    init(countColumns: Int, parts: Int) {
        self.countColumns = countColumns
        self.parts = parts
    }

    /// The slot of `key`, made on first sight.
    mutating func slot(of key: Int64) -> Int {
        let mask = buckets.count - 1
        var bucket = Self.bucket(of: key, mask: mask)
        while true {
            let entry = Int(buckets[bucket])
            if entry == 0 { break }
            if keys[entry - 1] == key { return entry - 1 }
            bucket = (bucket + 1) & mask
        }
        let slot = keys.count
        keys.append(key)
        buckets[bucket] = Int32(slot + 1)
        sums.append(contentsOf: repeatElement(0, count: countColumns * parts))
        if 2 * keys.count > buckets.count { grow() }
        return slot
    }

    mutating func add(_ value: Int, column: Int, part: Int, slot: Int) {
        sums[slot * countColumns * parts + column * parts + part] += value
    }

    func sum(column: Int, part: Int, slot: Int) -> Int {
        sums[slot * countColumns * parts + column * parts + part]
    }

    /// Notes a sketch of `slot` for its union (an EMPTY one adds nothing and is dropped here).
    /// `bytes` must stay valid until `cardinalities` returns.
    mutating func addSketch(_ bytes: UnsafeRawBufferPointer, slot: Int) {
        if bytes.count == HLLSketch.empty.bytes.count, bytes.elementsEqual(HLLSketch.empty.bytes) { return }
        guard let base = bytes.baseAddress else { return }
        sketches.append(SketchBytes(base: base, count: bytes.count))
        sketchSlots.append(Int32(slot))
    }

    /// Per slot, the cardinality of the union of its sketches (0 without any), as
    /// `hll_cardinality` gives it; on up to `workers` threads (`ForkJoin`), each at least
    /// `minimumPerWorker` keys.
    /// - Throws: `HLLSketchError` for bytes that are no sketch of the default parameters.
    func cardinalities(workers: Int, minimumPerWorker: Int = 512) throws(HLLSketchError) -> [Double] {
        try unions(workers: workers, minimumPerWorker: minimumPerWorker) { $0.cardinality() }
    }

    /// Per slot, the union of its sketches as a sketch, byte for byte what `hll_union_agg` stores
    /// (EMPTY without any); on threads as `cardinalities`.
    /// - Throws: `HLLSketchError` for bytes that are no sketch of the default parameters.
    func sketches(workers: Int, minimumPerWorker: Int = 512) throws(HLLSketchError) -> [HLLSketch] {
        try unions(workers: workers, minimumPerWorker: minimumPerWorker) { $0.sketch() }
    }

    /// Per slot, `finish` of the union of its sketches.
    private func unions<R: Sendable>(workers: Int, minimumPerWorker: Int,
                                     _ finish: @escaping @Sendable (inout HLLUnion) -> R) throws(HLLSketchError) -> [R] {
        let keyCount = keys.count
        // The sketches by slot (a counting sort): slot s owns order[first[s]..<first[s + 1]].
        var first = [Int](repeating: 0, count: keyCount + 1)
        for slot in sketchSlots { first[Int(slot) + 1] += 1 }
        for slot in 0..<keyCount { first[slot + 1] += first[slot] }
        var next = first
        var order = [Int](repeating: 0, count: sketchSlots.count)
        for (sketch, slot) in sketchSlots.enumerated() {
            order[next[Int(slot)]] = sketch
            next[Int(slot)] += 1
        }
        let sketches = self.sketches
        let owners = first
        let sketchOrder = order

        let shares = max(1, min(workers, keyCount / max(1, minimumPerWorker)))
        let sliceSize = (keyCount + shares - 1) / shares
        let slices = try ForkJoin.map(shares: shares) { (share) throws(HLLSketchError) -> [R] in
            let range = share * sliceSize..<min(keyCount, (share + 1) * sliceSize)
            var out: [R] = []
            out.reserveCapacity(range.count)
            var union = HLLUnion()
            for slot in range {
                union.removeAll()
                for position in owners[slot]..<owners[slot + 1] {
                    let sketch = sketches[sketchOrder[position]]
                    try union.formUnion(bytes: UnsafeRawBufferPointer(start: sketch.base, count: sketch.count))
                }
                out.append(finish(&union))
            }
            return out
        }
        return Array(slices.joined())
    }

    private static func bucket(of key: Int64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func grow() {
        buckets = [Int32](repeating: 0, count: buckets.count * 2)
        let mask = buckets.count - 1
        for (slot, key) in keys.enumerated() {
            var bucket = Self.bucket(of: key, mask: mask)
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(slot + 1)
        }
    }
}

/// Where a sketch's bytes lie in a result that is still held (see `PartTotals`): read-only, so
/// the threads of `cardinalities` may share it.
private struct SketchBytes: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
}
