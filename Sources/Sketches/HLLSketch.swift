/// A distinct-count sketch byte for byte as postgresql-hll stores it (schema version 1, see its
/// STORAGE.markdown), built from the hashes of a set's members with the extension's default
/// parameters: so `HLLSketch(hashes: people.map { MurmurHash3.hash($0) }).bytes` is exactly the
/// value of `hll_add_agg(hll_hash_bigint(person))` over those people, and the rollups can count a
/// day outside the SQL executor and store sketches that windows later union in SQL.
///
/// The defaults: 2^11 registers (`log2m` 11) of 5 bits (`regwidth` 5), the explicit threshold
/// chosen automatically (`expthresh` -1), sparse storage enabled (`sparseon` 1). The bytes:
///
/// - a 3-byte header: version 1 in the top nibble and the type in the bottom one (1 EMPTY,
///   2 EXPLICIT, 3 SPARSE, 4 FULL); `(regwidth - 1) << 5 | log2m` = 0x8B; `sparseon << 6 |
///   encoded expthresh` (63 for auto) = 0x7F;
/// - EMPTY: nothing more;
/// - EXPLICIT, while the set has at most `explicitLimit` distinct hashes: the hashes in ascending
///   order as signed integers, each 8 bytes big-endian. `explicitLimit` is what "auto" picks: as
///   many 8-byte values as fit in the FULL data, (5 * 2048 + 7) / 8 / 8 = 160; the 161st distinct
///   hash turns the set into registers (whatever the order the hashes came in, so the bytes
///   depend on the set alone, and a union of sketches equals the sketch of the union);
/// - registers: hash h goes to register `h & 2047`; its value is 1 + the number of trailing
///   zero bits of `h >> 11` (0 when that is 0), at most 31, and a register keeps its maximum.
///   Stored as SPARSE while that is smaller than FULL, i.e. while filled * (11 + 5) bits <
///   2048 * 5 bits (fewer than 640 filled registers): the filled registers in index order as
///   16-bit words `index << 5 | value`; else FULL: every register's 5 bits in index order. Both
///   are packed from the high bits of the first byte down, the last byte padded with zero bits.
public struct HLLSketch: Hashable, Sendable {
    public static let log2m = 11
    public static let registerWidth = 5
    public static let registerCount = 1 << log2m
    /// The most distinct hashes stored as a list (postgresql-hll's automatic explicit threshold).
    public static let explicitLimit = (registerWidth * registerCount + 7) / 8 / 8
    static let parameterByte = UInt8((registerWidth - 1) << 5 | log2m)
    static let cutoffByte: UInt8 = 1 << 6 | 63

    enum Kind: UInt8 {
        case empty = 1, explicit = 2, sparse = 3, full = 4
    }

    /// The stored bytes (what `hll_send` sends and `users::bytea` shows).
    public let bytes: [UInt8]

    /// The empty set (`hll_empty()`).
    public static let empty = HLLSketch(bytes: header(.empty))

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The sketch of the set of `hashes` (any order, duplicates allowed).
    public init(hashes: [Int64]) {
        if hashes.isEmpty {
            self = .empty
            return
        }
        // A list needs the distinct hashes in order: sorted here for small inputs; a large input is
        // a list only if it repeats itself a lot, which a set of its first distinct values tells
        // (it stops growing past the limit, so a large set of distinct values costs little).
        var distinctHashes: [Int64]
        if hashes.count <= 4 * Self.explicitLimit {
            distinctHashes = hashes
            distinctHashes.sort()
            var kept = 1
            for index in 1..<distinctHashes.count where distinctHashes[index] != distinctHashes[kept - 1] {
                distinctHashes[kept] = distinctHashes[index]
                kept += 1
            }
            distinctHashes.removeLast(distinctHashes.count - kept)
        } else {
            var seen = Set<Int64>(minimumCapacity: Self.explicitLimit + 1)
            for hash in hashes {
                seen.insert(hash)
                if seen.count > Self.explicitLimit { break }
            }
            distinctHashes = seen.sorted()
        }
        if distinctHashes.count <= Self.explicitLimit {
            var bytes = Self.header(.explicit)
            bytes.reserveCapacity(3 + 8 * distinctHashes.count)
            for hash in distinctHashes {
                withUnsafeBytes(of: UInt64(bitPattern: hash).bigEndian) { bytes.append(contentsOf: $0) }
            }
            self.bytes = bytes
            return
        }
        var registers = [UInt8](repeating: 0, count: Self.registerCount)
        registers.withUnsafeMutableBufferPointer { registers in
            for hash in hashes { Self.add(hash, to: registers) }
        }
        self.bytes = Self.pack(registers)
    }

    /// Sets the register of `hash` to its value if that is larger.
    static func add(_ hash: Int64, to registers: inout [UInt8]) {
        registers.withUnsafeMutableBufferPointer { add(hash, to: $0) }
    }

    static func add(_ hash: Int64, to registers: UnsafeMutableBufferPointer<UInt8>) {
        let bits = UInt64(bitPattern: hash)
        let index = Int(bits & UInt64(registerCount - 1))
        let rest = bits >> UInt64(log2m)
        let value = rest == 0 ? 0 : min(rest.trailingZeroBitCount + 1, (1 << registerWidth) - 1)
        if registers[index] < UInt8(value) { registers[index] = UInt8(value) }
    }

    /// SPARSE or FULL bytes of a register array, whichever postgresql-hll would store: what
    /// `BitWriter` packs, written whole words at a time (a SPARSE entry is 11 + 5 = 16 bits, two
    /// bytes; FULL packs 8 registers of 5 bits into 5 bytes, 2,048 of them into 1,280 bytes with no
    /// padding).
    static func pack(_ registers: [UInt8]) -> [UInt8] {
        precondition(registers.count == registerCount, "one value per register")
        return registers.withUnsafeBufferPointer { registers in
            var filled = 0
            for value in registers where value != 0 { filled += 1 }
            if filled * (log2m + registerWidth) < registerCount * registerWidth {
                var bytes = header(.sparse)
                bytes.reserveCapacity(3 + 2 * filled)
                for index in 0..<registerCount where registers[index] != 0 {
                    let entry = UInt16(index) << UInt16(registerWidth) | UInt16(registers[index] & 0x1F)
                    bytes.append(UInt8(entry >> 8))
                    bytes.append(UInt8(truncatingIfNeeded: entry))
                }
                return bytes
            }
            var bytes = header(.full)
            bytes += repeatElement(0, count: registerCount * registerWidth / 8)
            bytes.withUnsafeMutableBufferPointer { bytes in
                for group in 0..<registerCount / 8 {
                    var bits: UInt64 = 0
                    for offset in 0..<8 { bits = bits << 5 | UInt64(registers[8 * group + offset] & 0x1F) }
                    for offset in 0..<5 { bytes[3 + 5 * group + offset] = UInt8(truncatingIfNeeded: bits >> UInt64(32 - 8 * offset)) }
                }
            }
            return bytes
        }
    }

    static func header(_ kind: Kind) -> [UInt8] {
        [1 << 4 | kind.rawValue, parameterByte, cutoffByte]
    }
}

/// Packs values of a few bits each from the high bits of a byte down, as postgresql-hll stores
/// registers; `finish` pads the last byte with zero bits.
struct BitWriter {
    var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingBits = 0

    mutating func put(_ value: UInt64, bits: Int) {
        pending = pending << UInt64(bits) | (value & ((1 << UInt64(bits)) - 1))
        pendingBits += bits
        while pendingBits >= 8 {
            pendingBits -= 8
            bytes.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingBits)))
        }
        pending &= (1 << UInt64(pendingBits)) - 1
    }

    mutating func finish() {
        if pendingBits > 0 { bytes.append(UInt8(truncatingIfNeeded: pending << UInt64(8 - pendingBits))) }
        pending = 0
        pendingBits = 0
    }
}
