/// Numbers the distinct (element type, command or dismissal, slot) keys of a day's events, the
/// one lookup `DayTally.Counter` makes per event: an open-addressing table (linear probing, at
/// most half full, capacity a power of two) over the key packed into two 64-bit words, hashed by
/// two multiplications. The same lookup through `Dictionary` costs a `Hasher` (SipHash) run per
/// event, which was a fifth of the client's time in a rollup (docs/benchmarks.md).
struct EventKeyIndex: Sendable {
    /// Per bucket, the key's two words (`pack`); valid where `numbers` is not -1.
    private var high: [UInt64] = []
    private var low: [UInt64] = []
    private var numbers: [Int32] = []
    private(set) var count = 0

    /// The key's words: element type and slot, and the command's bits, or bit 32 alone for a
    /// dismissal (no command's bits can be that).
    @inline(__always)
    static func pack(elementTypeID: Int32, commandID: Int32?, slot: Int32) -> (high: UInt64, low: UInt64) {
        (UInt64(UInt32(bitPattern: elementTypeID)) << 32 | UInt64(UInt32(bitPattern: slot)),
         commandID.map { UInt64(UInt32(bitPattern: $0)) } ?? 1 << 32)
    }

    @inline(__always)
    private static func bucket(_ high: UInt64, _ low: UInt64, mask: Int) -> Int {
        let mixed = (high &* 0x9E37_79B9_7F4A_7C15) ^ (low &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31)) & mask
    }

    /// The number given to the key, or nil when it has none yet.
    @inline(__always)
    func number(_ key: (high: UInt64, low: UInt64)) -> Int32? {
        guard !numbers.isEmpty else { return nil }
        let mask = numbers.count - 1
        var at = Self.bucket(key.high, key.low, mask: mask)
        while true {
            let found = numbers[at]
            if found < 0 { return nil }
            if high[at] == key.high, low[at] == key.low { return found }
            at = (at + 1) & mask
        }
    }

    /// Gives the key (which has no number yet) the next number, `count`, and returns it.
    mutating func add(_ key: (high: UInt64, low: UInt64)) -> Int32 {
        if 2 * (count + 1) > numbers.count { grow() }
        let number = Int32(count)
        insert(key, number)
        count += 1
        return number
    }

    private mutating func insert(_ key: (high: UInt64, low: UInt64), _ number: Int32) {
        let mask = numbers.count - 1
        var at = Self.bucket(key.high, key.low, mask: mask)
        while numbers[at] >= 0 { at = (at + 1) & mask }
        high[at] = key.high
        low[at] = key.low
        numbers[at] = number
    }

    private mutating func grow() {
        let old = (high, low, numbers)
        let capacity = max(64, 2 * numbers.count)
        high = [UInt64](repeating: 0, count: capacity)
        low = [UInt64](repeating: 0, count: capacity)
        numbers = [Int32](repeating: -1, count: capacity)
        for at in old.2.indices where old.2[at] >= 0 { insert((old.0[at], old.1[at]), old.2[at]) }
    }
}
