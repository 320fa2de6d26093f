extension PersonBucket {
    /// The bucket of a person the database knows only by their pseudonym (`events.user_hash`, the
    /// app's keyed hash of the user id): for events stored before the bucket was (sql/0020), whose
    /// raw id is gone. Such a person lands in one bucket as any other does, only not in the one
    /// `of(user:)` gives their raw id; the rollups use it only where the stored bucket is NULL.
    public static func of(pseudonym: Int64) -> Int {
        bucket(of: UInt64(bitPattern: pseudonym))
    }
}

/// The storage form of a split (`PeopleCounts.encoded`) for whole counts, as the rollups write and
/// sum it: a split held flat, `2 * PersonBucket.count` counts, the selections of buckets 0..<64
/// and then their user-days, so that a day, a block or a window sums its parts' splits without a
/// `PeopleCounts` (two arrays of `Double`) per row.
extension PeopleCounts {
    /// Counts in a flat split.
    public static let flatCount = 2 * PersonBucket.count

    /// `encoded`'s bytes of whole counts per bucket (`PersonBucket.count` of each).
    public static func encode(selections: [Int64], userDays: [Int64]) -> [UInt8] {
        precondition(selections.count == PersonBucket.count && userDays.count == PersonBucket.count,
                     "a split has \(PersonBucket.count) buckets")
        return (selections + userDays).withUnsafeBufferPointer { encode(flat: $0) }
    }

    /// `encoded`'s bytes of a flat split.
    public static func encode(flat counts: UnsafeBufferPointer<Int64>) -> [UInt8] {
        precondition(counts.count == flatCount, "a flat split has \(flatCount) counts")
        var out: [UInt8] = []
        for bucket in 0..<PersonBucket.count {
            let selections = counts[bucket]
            let userDays = counts[PersonBucket.count + bucket]
            guard selections > 0 || userDays > 0 else { continue }
            out.append(UInt8(bucket))
            appendVarint(UInt64(max(0, selections)), to: &out)
            appendVarint(UInt64(max(0, userDays)), to: &out)
        }
        return out
    }

    /// Adds the split `bytes` encode (`encoded`) into a flat split, as a block or a window sums its
    /// parts. False when the bytes are no split (some of them may have been added then: the caller
    /// gives up on the sum); empty bytes (the unknown split) add nothing and are true, so the
    /// caller tells unknown parts apart itself.
    public static func add(encoded bytes: UnsafeRawBufferPointer, into counts: UnsafeMutableBufferPointer<Int64>) -> Bool {
        precondition(counts.count == flatCount, "a flat split has \(flatCount) counts")
        return forEachBucket(in: bytes) { bucket, selections, userDays in
            counts[bucket] &+= Int64(truncatingIfNeeded: selections)
            counts[PersonBucket.count + bucket] &+= Int64(truncatingIfNeeded: userDays)
        }
    }

    /// Walks the buckets `encoded`'s bytes hold, in order, each with its two counts. False when the
    /// bytes are no split (a bucket out of range or out of order, a varint cut short or too long,
    /// a count of 2^48 or more, which no stored row holds), after the buckets before the fault.
    static func forEachBucket<C: Collection<UInt8>>(in bytes: C, _ body: (Int, UInt64, UInt64) -> Void) -> Bool {
        var index = bytes.startIndex
        var last = -1
        while index != bytes.endIndex {
            let bucket = Int(bytes[index])
            guard bucket < PersonBucket.count, bucket > last else { return false }
            last = bucket
            index = bytes.index(after: index)
            guard let selections = readVarint(bytes, at: &index), let userDays = readVarint(bytes, at: &index),
                  selections < 1 << 48, userDays < 1 << 48 else { return false }
            body(bucket, selections, userDays)
        }
        return true
    }

    /// The split of a flat split's counts.
    public init(flat counts: UnsafeBufferPointer<Int64>) {
        precondition(counts.count == Self.flatCount, "a flat split has \(Self.flatCount) counts")
        self.init(selections: counts[0..<PersonBucket.count].map(Double.init),
                  userDays: counts[PersonBucket.count...].map(Double.init))
    }
}
