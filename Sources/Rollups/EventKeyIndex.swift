/// Where each distinct (element type, command or dismissal, slot) of a day's events counts: the
/// one lookup `DayTally.Counter` makes per run of events of one key (`EventRecords`). An
/// open-addressing table (linear probing, at most half full, capacity a power of two) whose
/// entries hold the key, packed into two 64-bit words, and its place side by side, so a lookup
/// touches one cache line; hashed by two multiplications. The same lookup through `Dictionary`
/// costs a `Hasher` (SipHash) run, which was a fifth of the client's time in a rollup when it was
/// made per event (docs/benchmarks.md).
struct EventKeyIndex: Sendable {
    /// An event's group and outcome tally (indexes into the counter's arrays).
    struct Place: Equatable, Sendable {
        var group: Int32
        var outcome: Int32
    }

    private struct Entry {
        var high: UInt64
        var low: UInt64
        /// `group` -1: an empty bucket.
        var place: Place
        static let empty = Entry(high: 0, low: 0, place: Place(group: -1, outcome: -1))
    }

    private var entries: [Entry] = []
    private(set) var count = 0

    /// The key's words: element type and slot, and the command's bits, or bit 32 alone for a
    /// dismissal (no command's bits can be that).
    @inline(__always)
    static func pack(elementTypeID: Int32, commandID: Int32?, slot: Int32) -> (high: UInt64, low: UInt64) {
        (UInt64(UInt32(bitPattern: elementTypeID)) << 32 | UInt64(UInt32(bitPattern: slot)),
         commandID.map { UInt64(UInt32(bitPattern: $0)) } ?? dismissal)
    }

    /// The low word of a dismissal's key.
    static let dismissal: UInt64 = 1 << 32
    /// The low word's bits that a key uses.
    static let commandMask: UInt64 = (1 << 33) - 1

    @inline(__always)
    private static func bucket(_ high: UInt64, _ low: UInt64, mask: Int) -> Int {
        let mixed = (high &* 0x9E37_79B9_7F4A_7C15) ^ (low &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31)) & mask
    }

    /// The key's place, or nil when it has none yet.
    @inline(__always)
    func place(_ key: (high: UInt64, low: UInt64)) -> Place? {
        entries.withUnsafeBufferPointer { entries in
            guard !entries.isEmpty else { return nil }
            let mask = entries.count - 1
            var at = Self.bucket(key.high, key.low, mask: mask)
            while true {
                let entry = entries[at]
                if entry.place.group < 0 { return nil }
                if entry.high == key.high, entry.low == key.low { return entry.place }
                at = (at + 1) & mask
            }
        }
    }

    /// Gives the key, which has no place yet, `place` (whose group is not negative).
    mutating func add(_ key: (high: UInt64, low: UInt64), place: Place) {
        precondition(place.group >= 0, "a place's group is an index")
        if 2 * (count + 1) > entries.count { grow() }
        insert(Entry(high: key.high, low: key.low, place: place))
        count += 1
    }

    /// Makes room for `count` keys in all, so that adding them grows the table at most once.
    mutating func reserve(_ count: Int) {
        var capacity = max(64, entries.count)
        while capacity < 2 * count { capacity *= 2 }
        guard capacity > entries.count else { return }
        let old = entries
        entries = [Entry](repeating: .empty, count: capacity)
        for entry in old where entry.place.group >= 0 { insert(entry) }
    }

    private mutating func insert(_ entry: Entry) {
        let mask = entries.count - 1
        var at = Self.bucket(entry.high, entry.low, mask: mask)
        while entries[at].place.group >= 0 { at = (at + 1) & mask }
        entries[at] = entry
    }

    private mutating func grow() {
        let old = entries
        entries = [Entry](repeating: .empty, count: max(64, 2 * old.count))
        for entry in old where entry.place.group >= 0 { insert(entry) }
    }
}
