/// The events `DayTally.Counter` has been given and not yet folded into its groups: fixed-width
/// records, appended as the events come and sorted by their key, so that the events of each
/// (element type, slot, command or dismissal) lie side by side and are folded in one run each.
///
/// Why: counting each event where it belongs as it comes costs several cache misses per event at
/// 1,000 element types (the key's table entry, the group, its people, the outcome tally, its
/// position and latency counts: about 20,000 keys and their tallies, far more than the caches
/// hold). Appending is sequential, and the sort is a least-significant-digit radix sort over the
/// key's bytes that vary (one pass each: at 1,000 element types, two bytes of the element type,
/// one of the command and one of the slot), each pass a linear read and a scatter into 256
/// places. Then each run costs those misses once, not each of its events.
///
/// A record is three words: the key's two words as `EventKeyIndex.pack` makes them (element type
/// and slot; the command's bits, or bit 32 alone for a dismissal), with the person's bucket
/// (`PersonBucket`, 6 bits) in the slot's unused top bits, the selection's position and latency
/// bucket in the command word's bits above the key's 33, and the person. (A slot indexes the day's
/// few (segment, menu version) pairs, so 26 bits are plenty; a fourth word for the bucket would
/// have made every record, and the sort's traffic, a third bigger.)
struct EventRecords: Sendable {
    struct Record: Sendable {
        /// Element type (high 32 bits), the person's bucket (bits 26-31) and slot (bits 0-25).
        var key: UInt64
        /// The command (bits 0-32, as `EventKeyIndex.pack`), then the position + 1 (bits 33-49, 0:
        /// none) and the latency bucket + 1 (bits 50-63, 0: none).
        var command: UInt64
        var person: Int64
    }

    /// The command word's bits that belong to the key.
    static let commandKeyMask: UInt64 = (1 << 33) - 1
    /// Where the person's bucket lies in the key word, and the key word's bits that belong to the
    /// key (all but the bucket's).
    static let personBucketShift: UInt64 = 26
    static let keyMask: UInt64 = ~(0x3F << personBucketShift)
    /// Slots a record holds: below 2^26.
    static let slotLimit: Int32 = 1 << 26
    static let positionShift: UInt64 = 33
    static let bucketShift: UInt64 = 50
    /// The largest latency bucket a record holds (`LatencyHistogram` has 569).
    static let maximumBucket = (1 << 14) - 2

    private(set) var records: [Record] = []
    /// The sort's other buffer, kept for the next sort.
    private var scratch: [Record] = []
    /// Bits set in any key (or command key) and bits set in every one: a byte where the two agree
    /// is the same in every record, so the sort skips it.
    private var keyOr: UInt64 = 0
    private var keyAnd: UInt64 = .max
    private var commandOr: UInt64 = 0
    private var commandAnd: UInt64 = .max

    var count: Int { records.count }
    var isEmpty: Bool { records.isEmpty }

    mutating func reserve(_ capacity: Int) {
        records.reserveCapacity(capacity)
    }

    /// Appends an event: its key words (`EventKeyIndex.pack`, whose slot must be below
    /// `slotLimit`), person, person's bucket (`0..<64`), position and latency bucket
    /// (`0...maximumBucket`), the last two nil when the event has none.
    @inline(__always)
    mutating func append(key: (high: UInt64, low: UInt64), person: Int64, personBucket: Int, position: Int16?, bucket: Int?) {
        var command = key.low
        if let position { command |= (UInt64(UInt16(bitPattern: position)) + 1) << Self.positionShift }
        if let bucket { command |= UInt64(bucket + 1) << Self.bucketShift }
        keyOr |= key.high
        keyAnd &= key.high
        commandOr |= key.low
        commandAnd &= key.low
        records.append(Record(key: key.high | UInt64(personBucket & 0x3F) << Self.personBucketShift, command: command,
                              person: person))
    }

    /// Appends every record of `other`.
    mutating func append(contentsOf other: EventRecords) {
        guard !other.records.isEmpty else { return }
        records += other.records
        keyOr |= other.keyOr
        keyAnd &= other.keyAnd
        commandOr |= other.commandOr
        commandAnd &= other.commandAnd
    }

    /// Empties the records, keeping the buffers' capacity.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        keyOr = 0
        keyAnd = .max
        commandOr = 0
        commandAnd = .max
    }

    /// The key of a record: equal for the events of one run.
    @inline(__always)
    static func sameKey(_ a: Record, _ b: Record) -> Bool {
        (a.key ^ b.key) & keyMask == 0 && (a.command ^ b.command) & commandKeyMask == 0
    }

    /// The key word of a record without the person's bucket (element type and slot).
    @inline(__always)
    static func keyWord(_ record: Record) -> UInt64 { record.key & keyMask }

    /// The person's bucket a record holds.
    @inline(__always)
    static func personBucket(_ record: Record) -> Int { Int((record.key >> personBucketShift) & 0x3F) }

    /// The position a record holds (nil: none).
    @inline(__always)
    static func position(_ record: Record) -> Int16? {
        let stored = (record.command >> positionShift) & 0x1_FFFF
        return stored == 0 ? nil : Int16(bitPattern: UInt16(truncatingIfNeeded: stored - 1))
    }

    /// The latency bucket a record holds (nil: none).
    @inline(__always)
    static func bucket(_ record: Record) -> Int? {
        let stored = record.command >> bucketShift
        return stored == 0 ? nil : Int(stored - 1)
    }

    /// Sorts the records by key (the key word without the person's bucket, then the command's key
    /// bits), stably: a
    /// least-significant-digit radix sort, one pass per byte that is not the same in every record.
    mutating func sortByKey() {
        let count = records.count
        guard count > 1 else { return }
        // The digits, least significant first: the command's 5 bytes (bit 32 alone in the last),
        // then the key word's 8.
        var digits: [(command: Bool, shift: UInt64)] = []
        let commandVaries = (commandOr ^ commandAnd) & Self.commandKeyMask
        let keyVaries = (keyOr ^ keyAnd) & Self.keyMask
        for byte in 0..<5 where (commandVaries >> UInt64(8 * byte)) & 0xFF != 0 { digits.append((true, UInt64(8 * byte))) }
        for byte in 0..<8 where (keyVaries >> UInt64(8 * byte)) & 0xFF != 0 { digits.append((false, UInt64(8 * byte))) }
        guard !digits.isEmpty else { return }
        if scratch.count < count {
            scratch = [Record](repeating: Record(key: 0, command: 0, person: 0), count: count)
        }
        // Every digit's counts first (a linear read each), then a pass per digit.
        var counts = [Int](repeating: 0, count: 256 * digits.count)
        records.withUnsafeBufferPointer { source in
            counts.withUnsafeMutableBufferPointer { counts in
                for (at, digit) in digits.enumerated() {
                    let base = 256 * at
                    if digit.command {
                        for record in source { counts[base + Int(((record.command & Self.commandKeyMask) >> digit.shift) & 0xFF)] += 1 }
                    } else {
                        for record in source { counts[base + Int(((record.key & Self.keyMask) >> digit.shift) & 0xFF)] += 1 }
                    }
                }
            }
        }
        for (at, digit) in digits.enumerated() {
            let base = 256 * at
            var offsets = [Int](repeating: 0, count: 256)
            var sum = 0
            for value in 0..<256 {
                offsets[value] = sum
                sum += counts[base + value]
            }
            records.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    offsets.withUnsafeMutableBufferPointer { offsets in
                        if digit.command {
                            for record in source {
                                let value = Int(((record.command & Self.commandKeyMask) >> digit.shift) & 0xFF)
                                target[offsets[value]] = record
                                offsets[value] += 1
                            }
                        } else {
                            for record in source {
                                let value = Int(((record.key & Self.keyMask) >> digit.shift) & 0xFF)
                                target[offsets[value]] = record
                                offsets[value] += 1
                            }
                        }
                    }
                }
            }
            // The sorted records are in `scratch` (of at least `count` records): take them, and
            // keep the old buffer as the next scratch.
            if scratch.count > count { scratch.removeLast(scratch.count - count) }
            swap(&records, &scratch)
        }
    }
}
