@testable import Sketches
import Testing

/// The sketch format without a database: hashes and bytes read from postgresql-hll 2.17 (the
/// byte identity over many sets is `StorageTests.HLLIdentityTests`, against the extension itself),
/// the bit packing of STORAGE.markdown's examples, and each representation and its promotion
/// boundaries.
@Suite struct HLLSketchTests {
    static let knownHashes: [(Int64, Int64)] = [
        (0, 2_945_182_322_382_062_539),
        (1, 19_144_387_141_682_250),
        (-1, -6_853_156_495_446_839_949),
        (Int64.max, 7_815_693_464_130_447_828),
        (Int64.min, 78_142_285_821_850_151),
        (42, -5_283_633_198_602_748_424),
    ]

    @Test(arguments: knownHashes)
    func hashesAsHLLHashBigint(value: Int64, expected: Int64) {
        #expect(MurmurHash3.hash(value) == expected)
    }

    @Test func emptyAndSmallSetsAsTheExtensionStoresThem() {
        #expect(HLLSketch.empty.bytes == [0x11, 0x8B, 0x7F])
        #expect(HLLSketch(hashes: []) == .empty)
        // hll_add_agg(hll_hash_bigint(p)) over 1, 2, 3: an explicit list in signed order.
        let expected: [UInt8] = [0x12, 0x8B, 0x7F, 0xDE, 0x08, 0x20, 0xA0, 0x6C, 0x76, 0xC0, 0xA8, 0x00, 0x44, 0x03, 0xB7,
                                 0xFB, 0x05, 0xC4, 0x4A, 0x5B, 0x3D, 0x58, 0x39, 0xB2, 0x48, 0x8B, 0x0C]
        #expect(HLLSketch(hashes: [3, 1, 2, 3, 1].map { MurmurHash3.hash($0) }).bytes == expected)
    }

    /// STORAGE.markdown's examples: SPARSE words of 17 bits (log2m 11, regwidth 6) and FULL
    /// registers of 5 bits, high bits first, padding at the bottom of the last byte. (The SPARSE
    /// example's octets in binary give 0xB4 for the fourth byte; its hex line's 0x5B is a typo.)
    @Test func bitsArePackedHighFirst() {
        var sparse = BitWriter()
        sparse.put(11 << 6 | 6, bits: 17)
        sparse.put(1099 << 6 | 19, bits: 17)
        sparse.finish()
        #expect(sparse.bytes == [0x01, 0x63, 0x44, 0xB4, 0xC0])
        var full = BitWriter()
        for value: UInt64 in [0, 1, 2, 3] { full.put(value, bits: 5) }
        full.finish()
        #expect(full.bytes == [0x00, 0x44, 0x30])
    }

    @Test func explicitUpTo160DistinctHashesThenRegisters() {
        let hashes = (0..<200).map { MurmurHash3.hash(Int64($0)) }
        let at160 = HLLSketch(hashes: Array(hashes[0..<160]) + Array(hashes[0..<50]))
        #expect(at160.bytes[0] == 0x12 && at160.bytes.count == 3 + 160 * 8)
        let body = stride(from: 3, to: at160.bytes.count, by: 8).map { start in
            Int64(bitPattern: at160.bytes[start..<start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        #expect(body == hashes[0..<160].sorted())
        let at161 = HLLSketch(hashes: Array(hashes[0..<161]))
        #expect(at161.bytes[0] == 0x13)
        #expect(at161.bytes.count <= 3 + 161 * 2 && (at161.bytes.count - 3) % 2 == 0)   // at most 161 registers of 16 bits
    }

    /// A hash `value << 11 | index` sets register `index` to 1 + trailing zeros of `value`.
    @Test func sparseBelow640FilledRegistersFullFrom640() {
        func filling(_ registers: Int) -> [Int64] { (0..<registers).map { Int64(1 << 11 | $0) } }
        let sparse = HLLSketch(hashes: filling(639))
        #expect(sparse.bytes[0] == 0x13 && sparse.bytes.count == 3 + 639 * 2)
        #expect(Array(sparse.bytes[3..<7]) == [0x00, 0x01, 0x00, 0x21])   // (0, 1), (1, 1)
        let full = HLLSketch(hashes: filling(640))
        #expect(full.bytes[0] == 0x14 && full.bytes.count == 3 + 2048 * 5 / 8)
        #expect(full.bytes[3] == 0b0000_1000 && full.bytes[4] == 0b0100_0010)   // registers 0-2 are 1
    }

    @Test func registerValuesCountTrailingZerosAndCapAt31() {
        var registers = [UInt8](repeating: 0, count: HLLSketch.registerCount)
        HLLSketch.add(Int64(5), to: &registers)                       // rest 0: value 0
        HLLSketch.add(Int64(0b1000) << 11 | 6, to: &registers)        // rest 0b1000: 4
        HLLSketch.add(Int64.min | 7, to: &registers)                  // rest 1 << 52: capped at 31
        HLLSketch.add(Int64(1) << 11 | 6, to: &registers)             // smaller than 4: kept
        #expect(registers[5] == 0 && registers[6] == 4 && registers[7] == 31)
    }
}
