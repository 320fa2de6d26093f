import Locking
import Sketches

/// The rows of a window's parts (`RollupSpan.rows`, read as they are stored) folded by key in
/// Swift: per key and part the counts summed, and the key's sketches united into its distinct
/// users, exactly as `sum(...)` and `hll_cardinality(hll_union_agg(users))` give them in SQL.
///
/// Why not in SQL: there the union sorts 27,000 rows with their sketches and unites them in a
/// group aggregate, about 600 ms of server time per connection at 1,000 element types, most of it
/// postgresql-hll sorting the lists it unites (see docs/benchmarks.md). Here a row costs a
/// dictionary lookup and a copy of its sketch's bytes; the unions (`HLLUnion`, the extension's own
/// count to the bit) run afterwards on `workers` threads, each over a slice of the keys.
struct PartTotals {
    /// The keys in the order first seen.
    private(set) var keys: [Int64] = []
    private var slots: [Int64: Int] = [:]
    /// Per key, `countColumns * parts` sums: column-major within the key (`column * parts + part`).
    private var sums: [Int] = []
    let countColumns: Int
    let parts: Int
    /// The sketches to unite, back to back, each with its key's slot and where it starts.
    private var sketchBytes: [UInt8] = []
    private var sketchSlots: [Int32] = []
    private var sketchStarts: [Int] = []

    init(countColumns: Int, parts: Int) {
        self.countColumns = countColumns
        self.parts = parts
    }

    /// The slot of `key`, made on first sight.
    mutating func slot(of key: Int64) -> Int {
        if let slot = slots[key] { return slot }
        let slot = keys.count
        keys.append(key)
        slots[key] = slot
        sums.append(contentsOf: repeatElement(0, count: countColumns * parts))
        return slot
    }

    mutating func add(_ value: Int, column: Int, part: Int, slot: Int) {
        sums[slot * countColumns * parts + column * parts + part] += value
    }

    func sum(column: Int, part: Int, slot: Int) -> Int {
        sums[slot * countColumns * parts + column * parts + part]
    }

    /// Keeps a sketch of `slot` for its union (an EMPTY one adds nothing and is dropped here).
    mutating func addSketch(_ bytes: UnsafeRawBufferPointer, slot: Int) {
        if bytes.count == HLLSketch.empty.bytes.count, bytes.elementsEqual(HLLSketch.empty.bytes) { return }
        sketchStarts.append(sketchBytes.count)
        sketchSlots.append(Int32(slot))
        sketchBytes.append(contentsOf: bytes)
    }

    /// Per slot, the cardinality of the union of its sketches (0 without any), as
    /// `hll_cardinality` gives it; on up to `workers` threads (`ForkJoin`), each at least
    /// `minimumPerWorker` keys.
    /// - Throws: `HLLSketchError` for bytes that are no sketch of the default parameters.
    func cardinalities(workers: Int, minimumPerWorker: Int = 256) throws(HLLSketchError) -> [Double] {
        let keyCount = keys.count
        // The sketches by slot (a counting sort): slot s owns order[first[s]..<first[s + 1]].
        var first = [Int](repeating: 0, count: keyCount + 1)
        for slot in sketchSlots { first[Int(slot) + 1] += 1 }
        for slot in 0..<keyCount { first[slot + 1] += first[slot] }
        var order = [Int](repeating: 0, count: sketchSlots.count)
        var next = first
        for (sketch, slot) in sketchSlots.enumerated() {
            order[next[Int(slot)]] = sketch
            next[Int(slot)] += 1
        }
        let bytes = sketchBytes
        let starts = sketchStarts + [sketchBytes.count]
        let owners = first
        let sketchOrder = order

        let shares = max(1, min(workers, keyCount / max(1, minimumPerWorker)))
        let sliceSize = (keyCount + shares - 1) / max(1, shares)
        let slices = try ForkJoin.map(shares: shares) { (share) throws(HLLSketchError) -> [Double] in
            let range = share * sliceSize..<min(keyCount, (share + 1) * sliceSize)
            var out: [Double] = []
            out.reserveCapacity(range.count)
            var union = HLLUnion()
            let united = bytes.withUnsafeBytes { all in
                Result { () throws(HLLSketchError) in
                    for slot in range {
                        union.removeAll()
                        for position in owners[slot]..<owners[slot + 1] {
                            let sketch = sketchOrder[position]
                            try union.formUnion(bytes: UnsafeRawBufferPointer(rebasing: all[starts[sketch]..<starts[sketch + 1]]))
                        }
                        out.append(union.cardinality())
                    }
                }
            }
            try united.get()
            return out
        }
        return Array(slices.joined())
    }
}
