import Foundation

/// The union of stored sketches and its distinct count, exactly as postgresql-hll computes them:
/// `HLLUnion` over sketches gives the bytes of `hll_union_agg` (`sketch()`) and the very double of
/// `hll_cardinality(hll_union_agg(...))` (`cardinality()`), for the extension's default parameters
/// (those `HLLSketch` describes).
///
/// The union of sketches is the sketch of the union of their sets, whatever their order and
/// storage forms, so it is built from the set's two possible states:
///
/// - a list, while every sketch united so far is EMPTY or EXPLICIT: their hashes gathered (with
///   repeats, deduplicated lazily). It stays a list while it has at most `HLLSketch.explicitLimit`
///   distinct hashes; more turn it into registers, as the extension promotes a list that would
///   grow past its threshold;
/// - registers, once a SPARSE or FULL sketch comes or the list outgrew the limit: every hash of
///   the list is added to 2^11 registers and every register of a sketch is merged by its maximum.
///
/// The count (postgresql-hll's `multiset_card`, from its algorithm description): a list counts its
/// distinct hashes. Registers give the HyperLogLog estimate `E = alpha_m * m^2 / sum(2^-register)`
/// with `m` = 2048 and `alpha_m = 0.7213 / (1 + 1.079 / m)`; where `E < 5m/2` and some register is
/// zero, linear counting `m * ln(m / zeros)` replaces it (the small-range correction); above
/// `2^L / 30`, with `L = log2m + 2^regwidth - 2 = 41`, the large-range correction
/// `-2^L * ln(1 - E / 2^L)`. Each step is the same IEEE double operation in the same order as the
/// extension's C, and the sum of powers of two is exact (at most 42 significant bits), so the result
/// is bit for bit the extension's. `ln` is the platform's C library `log`, which the server's
/// extension calls too: on the same C library the doubles are identical
/// (`StorageTests.HLLCardinalityTests` proves it against the server).
public struct HLLUnion: Sendable {
    /// The gathered hashes while the union is a list (may repeat until `compactList`).
    private var hashes: [Int64] = []
    /// The registers once the union is no list (`HLLSketch.registerCount` values), else empty.
    private var registers: [UInt8] = []
    /// Whether `hashes` is sorted and free of repeats.
    private var listIsCompact = true

    public init() {}

    /// True once the union is kept as registers.
    public var isRegisters: Bool { !registers.isEmpty }

    /// Back to the empty set, keeping the storage for the next union.
    public mutating func removeAll() {
        hashes.removeAll(keepingCapacity: true)
        registers.removeAll(keepingCapacity: true)
        listIsCompact = true
    }

    /// Unites `sketch`.
    public mutating func formUnion(_ sketch: HLLSketch) {
        let united = sketch.bytes.withUnsafeBytes { bytes in
            Result { () throws(HLLSketchError) in try formUnion(bytes: bytes) }
        }
        if case .failure(let error) = united { preconditionFailure("an HLLSketch holds valid bytes: \(error)") }
    }

    /// Unites the sketch stored as `bytes` (what `hll_send` sends: `users` read in binary).
    /// - Throws: `HLLSketchError` when the bytes are no sketch of the default parameters, or are
    ///   malformed; the union is then unchanged.
    public mutating func formUnion(bytes: UnsafeRawBufferPointer) throws(HLLSketchError) {
        let kind = try HLLSketch.kind(of: bytes)
        let body = UnsafeRawBufferPointer(rebasing: bytes[3...])
        switch kind {
        case .empty:
            return
        case .explicit:
            let count = body.count / 8
            if registers.isEmpty {
                hashes.reserveCapacity(hashes.count + count)
                for index in 0..<count {
                    hashes.append(Int64(bitPattern: UInt64(bigEndian: body.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))))
                }
                listIsCompact = false
                // A list of many sketches is compacted as it grows, so it holds at most a few
                // times the limit before it is known to need registers.
                if hashes.count > 4 * HLLSketch.explicitLimit {
                    compactList()
                    if hashes.count > HLLSketch.explicitLimit { promote() }
                }
            } else {
                registers.withUnsafeMutableBufferPointer { registers in
                    for index in 0..<count {
                        let hash = Int64(bitPattern: UInt64(bigEndian: body.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self)))
                        HLLSketch.add(hash, to: registers)
                    }
                }
            }
        case .sparse:
            promote()
            registers.withUnsafeMutableBufferPointer { registers in
                // log2m + regwidth = 16: every word is two bytes, `index << 5 | value`, so every
                // index is below the 2^11 registers (unchecked).
                let out = registers.baseAddress!
                for word in 0..<body.count / 2 {
                    let bits = Int(UInt16(bigEndian: body.loadUnaligned(fromByteOffset: 2 * word, as: UInt16.self)))
                    let index = bits >> HLLSketch.registerWidth
                    out[index] = max(out[index], UInt8(bits & (1 << HLLSketch.registerWidth - 1)))
                }
            }
        case .full:
            promote()
            registers.withUnsafeMutableBufferPointer { registers in
                Self.merge(full: body, into: UnsafeMutableRawPointer(registers.baseAddress!))
            }
        }
    }

    /// Merges the registers of a FULL body (its 1,280 bytes: 5-bit registers, high bits first,
    /// eight registers in every five bytes) into `registers` (2^11 bytes) by their maximum, eight
    /// at a time: the five bytes of a group read as the top of a big-endian word, its eight values
    /// spread into the eight bytes of a word, and the bytewise maximum of two words taken without
    /// a branch (every value is below 2^7, so `(a | 0x80) - b` keeps its top bit exactly where
    /// `a >= b`, and no byte borrows from its neighbour).
    @inline(__always)
    private static func merge(full body: UnsafeRawBufferPointer, into registers: UnsafeMutableRawPointer) {
        let groups = HLLSketch.registerCount / 8
        let top: UInt64 = 0x8080_8080_8080_8080
        for group in 0..<groups {
            let bits: UInt64
            if group < groups - 1 {
                bits = UInt64(bigEndian: body.loadUnaligned(fromByteOffset: 5 * group, as: UInt64.self)) >> 24
            } else {
                var last: UInt64 = 0
                for byte in 0..<5 { last = last << 8 | UInt64(body[5 * group + byte]) }
                bits = last
            }
            var spread: UInt64 = 0
            for slot in 0..<8 { spread |= (bits >> UInt64(35 - 5 * slot) & 31) << UInt64(8 * slot) }
            let current = UInt64(littleEndian: registers.loadUnaligned(fromByteOffset: 8 * group, as: UInt64.self))
            let kept = (((current | top) &- spread) & top) >> 7 &* 0xFF
            registers.storeBytes(of: ((current & kept) | (spread & ~kept)).littleEndian, toByteOffset: 8 * group, as: UInt64.self)
        }
    }

    /// The distinct count, as `hll_cardinality` gives it for the union's sketch (0 for the empty
    /// set).
    public mutating func cardinality() -> Double {
        if registers.isEmpty {
            compactList()
            if hashes.count <= HLLSketch.explicitLimit { return Double(hashes.count) }
            promote()
        }
        return Self.estimate(registers)
    }

    /// The union's sketch, byte for byte what `hll_union_agg` stores (EMPTY for no sketches, where
    /// the aggregate gives NULL).
    public mutating func sketch() -> HLLSketch {
        if registers.isEmpty {
            compactList()
            if hashes.isEmpty { return .empty }
            if hashes.count <= HLLSketch.explicitLimit { return HLLSketch(sortedDistinct: hashes) }
            promote()
        }
        return HLLSketch(bytes: HLLSketch.pack(registers))
    }

    /// Sorts the list and drops its repeats.
    private mutating func compactList() {
        guard !listIsCompact else { return }
        hashes.sort()
        var kept = 0
        for index in hashes.indices where kept == 0 || hashes[index] != hashes[kept - 1] {
            hashes[kept] = hashes[index]
            kept += 1
        }
        hashes.removeLast(hashes.count - kept)
        listIsCompact = true
    }

    /// Turns the list into registers (no-op once they exist).
    private mutating func promote() {
        guard registers.isEmpty else { return }
        registers.append(contentsOf: repeatElement(0, count: HLLSketch.registerCount))   // reuses the capacity
        registers.withUnsafeMutableBufferPointer { registers in
            for hash in hashes { HLLSketch.add(hash, to: registers) }
        }
        hashes.removeAll(keepingCapacity: true)
        listIsCompact = true
    }

    /// Which of the estimate's three ranges a register array falls in.
    enum Range: Hashable, Sendable {
        /// Some register is zero and the raw estimate is below 5m/2: linear counting.
        case linear
        /// The raw HyperLogLog estimate.
        case raw
        /// Above 2^L / 30: the large-range correction.
        case large
    }

    /// `multiset_card` of registers (see the type's comment).
    static func estimate(_ registers: [UInt8]) -> Double { estimateWithRange(registers).value }

    static func estimateWithRange(_ registers: [UInt8]) -> (value: Double, range: Range) {
        // sum(2^-r) over the registers as an integer count of 2^-31 (r is at most 31): exact.
        // Four registers at a time into four sums, with no branch (a zero register is the one
        // whose value minus one wraps to the top bit): the chains run side by side.
        var sums: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var zeros: UInt64 = 0
        registers.withUnsafeBufferPointer { registers in
            precondition(registers.count % 4 == 0)
            var index = 0
            while index < registers.count {
                let a = registers[index], b = registers[index + 1], c = registers[index + 2], d = registers[index + 3]
                sums.0 &+= 1 &<< UInt64(31 &- (a & 31))
                sums.1 &+= 1 &<< UInt64(31 &- (b & 31))
                sums.2 &+= 1 &<< UInt64(31 &- (c & 31))
                sums.3 &+= 1 &<< UInt64(31 &- (d & 31))
                zeros &+= UInt64((a &- 1) >> 7) &+ UInt64((b &- 1) >> 7) &+ UInt64((c &- 1) >> 7) &+ UInt64((d &- 1) >> 7)
                index += 4
            }
        }
        let scaledSum = sums.0 &+ sums.1 &+ sums.2 &+ sums.3
        let sum = Double(scaledSum) / Double(1 << 31 as UInt64)
        let m = Double(HLLSketch.registerCount)
        let alphaMSquared = 0.7213 / (1.0 + 1.079 / m) * m * m
        let estimator = alphaMSquared / sum
        let twoToL = UInt64(1) << UInt64(HLLSketch.log2m + (1 << HLLSketch.registerWidth) - 2)
        if zeros != 0, estimator < 5.0 * m / 2.0 {
            return (m * log(m / Double(zeros)), .linear)   // zeros: a count, exact as a double
        }
        if estimator <= Double(twoToL) / 30.0 { return (estimator, .raw) }
        return (Double(-Int64(twoToL)) * log(1.0 - estimator / Double(twoToL)), .large)
    }

    /// The range the union's count falls in (nil while it is a list).
    mutating func range() -> Range? {
        if registers.isEmpty {
            compactList()
            if hashes.count <= HLLSketch.explicitLimit { return nil }
            promote()
        }
        return Self.estimateWithRange(registers).range
    }
}
