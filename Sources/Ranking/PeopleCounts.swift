/// A command's use split by **person bucket** (DESIGN.md, "People are the unit of evidence").
///
/// Every person falls into one of `PersonBucket.count` buckets by a hash of their id, so the
/// buckets are independent random groups of people. A command's selections and user-days summed
/// per bucket stay additive over days and windows (a daily rollup row carries its day's split, a
/// window the sum of its days), and what differs between buckets is what differs between people:
/// the spread of the bucket sums estimates how much a total would change with other people
/// (a cluster variance over the buckets), and resampling buckets resamples people. Nothing per
/// person is kept.
///
/// The arrays are empty when the split is unknown (rows rolled up before buckets existed); then
/// the recommender falls back to tests that treat counts as independent draws.
public struct PeopleCounts: Hashable, Sendable {
    /// Selections per bucket (`PersonBucket.count` values, or none).
    public var selections: [Double]
    /// User-days per bucket: per day, the distinct people of the bucket who picked the command,
    /// summed over the days (`PersonBucket.count` values, or none).
    public var userDays: [Double]

    /// The unknown split.
    public static let unknown = PeopleCounts(selections: [], userDays: [])

    public init(selections: [Double], userDays: [Double]) {
        precondition(selections.count == userDays.count && (selections.isEmpty || selections.count == PersonBucket.count),
                     "a split has \(PersonBucket.count) buckets or none")
        self.selections = selections
        self.userDays = userDays
    }

    /// A split of zeros, to add days into.
    public static var zero: PeopleCounts {
        PeopleCounts(selections: [Double](repeating: 0, count: PersonBucket.count),
                     userDays: [Double](repeating: 0, count: PersonBucket.count))
    }

    public var isKnown: Bool { !selections.isEmpty }

    /// Adds `other` times `weight` (a day's decay weight) into this split; an unknown side makes
    /// the sum unknown, so a window with a day of unknown split is unknown as a whole.
    public mutating func add(_ other: PeopleCounts, weight: Double = 1) {
        guard isKnown, other.isKnown else {
            self = .unknown
            return
        }
        for bucket in 0..<PersonBucket.count {
            selections[bucket] += other.selections[bucket] * weight
            userDays[bucket] += other.userDays[bucket] * weight
        }
    }

    /// The split with every bucket times `factor`.
    public func scaled(by factor: Double) -> PeopleCounts {
        guard isKnown else { return self }
        return PeopleCounts(selections: selections.map { $0 * factor }, userDays: userDays.map { $0 * factor })
    }

    // MARK: Storage form

    /// The split as bytes, as the rollups store it: for each bucket with use, in ascending order,
    /// the bucket's index (one byte), then its selections and its user-days as unsigned LEB128
    /// varints. Counts are whole numbers in a stored row; an unknown split is no bytes, and so is
    /// a split of zeros (a stored row always has use, so the two never meet).
    public var encoded: [UInt8] {
        guard isKnown else { return [] }
        var out: [UInt8] = []
        for bucket in 0..<PersonBucket.count where selections[bucket] > 0 || userDays[bucket] > 0 {
            out.append(UInt8(bucket))
            Self.appendVarint(UInt64(max(0, selections[bucket].rounded())), to: &out)
            Self.appendVarint(UInt64(max(0, userDays[bucket].rounded())), to: &out)
        }
        return out
    }

    /// Reads `encoded`'s bytes; empty bytes are the unknown split. Nil when the bytes are not a
    /// split (a bucket out of range or out of order, a varint cut short or too long).
    public init?(encoded bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty else {
            self = .unknown
            return
        }
        var split = PeopleCounts.zero
        let read = Self.forEachBucket(in: bytes) { bucket, selections, userDays in
            split.selections[bucket] = Double(selections)
            split.userDays[bucket] = Double(userDays)
        }
        guard read else { return nil }
        self = split
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    static func readVarint<C: Collection<UInt8>>(_ bytes: C, at index: inout C.Index) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index != bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index = bytes.index(after: index)
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}

/// Which bucket a person falls into (`PeopleCounts`). The same person lands in the same bucket
/// in the database (computed at ingest from the id the app sends, before it is pseudonymized) and
/// in the database-free mode, so both give the same evidence on the same events.
public enum PersonBucket {
    /// Buckets in all: enough independent groups for a cluster variance (63 degrees of freedom),
    /// few enough that a rollup row with many people stays small.
    public static let count = 64

    /// The bucket of the person an app names `user` (its `user` field as sent).
    public static func of(user: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return bucket(of: hash)
    }

    /// The bucket of an event without a user, which counts as a person of its own: from its id's
    /// 128 bits (as two big-endian halves).
    public static func of(eventIDHigh high: UInt64, low: UInt64) -> Int {
        bucket(of: high ^ (low &* 0x9e37_79b9_7f4a_7c15))
    }

    /// The top bits of MurmurHash3's 64-bit finalizer, so that every input bit reaches the bucket.
    static func bucket(of value: UInt64) -> Int {
        var z = value
        z ^= z >> 33
        z = z &* 0xff51_afd7_ed55_8ccd
        z ^= z >> 33
        z = z &* 0xc4ce_b9fe_1a85_ec53
        z ^= z >> 33
        return Int(z >> 58)
    }
}
