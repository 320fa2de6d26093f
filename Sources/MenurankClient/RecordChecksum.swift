/// The checksum of a journal record's payload, by segment format: CRC-32 in the first
/// (`MRKJRNL1`, still read), a multiply-rotate hash in the second (`MRKJRNL2`, written now).
///
/// Why not CRC-32 any more: every recorded event is checksummed as it is journaled, and the
/// table-driven CRC (slicing by 8, about 1 ns per byte here: Swift reaches no CRC instruction
/// without a C module) was an eighth of the library's CPU in `simulate`. The checksum only has to
/// tell a record that was written whole from a torn or garbled one (a kill in the middle of an
/// append, pages lost in a power cut), not resist an adversary, and CRC's guarantees for short
/// bursts of errors buy nothing there: any change to the bytes or the length gives an unrelated
/// 32-bit value, so garbage passes with odds of one in four billion. Two lanes of 8-byte words
/// run side by side, each `(lane ^ word * p2) rotated, * p1`, and MurmurHash3's 64-bit finalizer
/// mixes them: about a tenth of CRC-32's time.
enum RecordChecksum {
    enum Kind: Sendable {
        /// The first format's CRC-32.
        case crc32
        /// The second format's hash.
        case mix
    }

    static func of(_ bytes: UnsafeRawBufferPointer, kind: Kind) -> UInt32 {
        switch kind {
        case .crc32: return CRC32.checksum(bytes)
        case .mix: return mix(bytes)
        }
    }

    private static let p1: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9

    static func mix(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let count = bytes.count
        // The length goes in first: zero padding of the last words cannot pass for real zeros.
        var a = UInt64(count) &* p1 ^ p3
        var b = p2
        if let base = bytes.baseAddress {
            var i = 0
            while i + 16 <= count {
                let x = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let y = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
                a = round(a, x)
                b = round(b, y)
                i += 16
            }
            // The last 0-15 bytes, as two zero-padded words.
            var x: UInt64 = 0
            var y: UInt64 = 0
            var j = 0
            while i + j < count {
                let byte = UInt64(base.load(fromByteOffset: i + j, as: UInt8.self))
                if j < 8 { x |= byte << UInt64(8 * j) } else { y |= byte << UInt64(8 * (j - 8)) }
                j += 1
            }
            a = round(a, x)
            b = round(b, y)
        }
        var h = a ^ rotl(b, 27)
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return UInt32(truncatingIfNeeded: h) ^ UInt32(truncatingIfNeeded: h >> 32)
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotl(lane ^ (word &* p2), 31) &* p1
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
