@testable import Sketches
import Testing
import TestSupport

/// `HLLUnion` without a database: a union of sketches is the sketch of the union whatever the
/// parts and their order, a list counts exactly up to the limit and turns into registers past it,
/// and bytes that are no sketch of the default parameters are refused without changing the union.
/// (Its counts against postgresql-hll itself: `StorageTests.HLLCardinalityTests`.)
@Suite struct HLLUnionTests {
    static func hashes(_ people: Range<Int>) -> [Int64] { people.map { MurmurHash3.hash(Int64($0)) } }

    @Test func theEmptyUnionCountsZero() {
        var union = HLLUnion()
        #expect(union.cardinality() == 0)
        #expect(union.sketch() == .empty)
        union.formUnion(.empty)
        #expect(union.cardinality() == 0 && !union.isRegisters)
        #expect(HLLSketch.empty.cardinality == 0)
    }

    @Test func listsCountTheirDistinctHashesUpToTheLimit() {
        var union = HLLUnion()
        union.formUnion(HLLSketch(hashes: Self.hashes(0..<100)))
        union.formUnion(HLLSketch(hashes: Self.hashes(40..<160)))
        #expect(union.cardinality() == 160 && !union.isRegisters)
        #expect(union.sketch() == HLLSketch(hashes: Self.hashes(0..<160)))
        union.formUnion(HLLSketch(hashes: Self.hashes(159..<161)))
        #expect(union.isRegisters == false)
        let count = union.cardinality()
        #expect(union.isRegisters && count != 161)   // 161 distinct: registers, an estimate
        #expect(union.sketch() == HLLSketch(hashes: Self.hashes(0..<161)))
        #expect(count == HLLSketch(hashes: Self.hashes(0..<161)).cardinality)
    }

    /// Sets cut into 1-30 parts of every storage form, united in a shuffled order: the bytes and
    /// the count of the whole set's sketch.
    @Test func theUnionOfPartsIsTheSketchOfTheWhole() {
        var generator = SplitMix64(seed: 7)
        var forms = Set<UInt8>()
        for size in [0, 1, 5, 150, 160, 161, 170, 400, 700, 900, 1_200, 5_000, 20_000] {
            let all = Self.hashes(0..<size)
            for partCount in [1, 2, 3, 7, 30] {
                var parts = [[Int64]](repeating: [], count: partCount)
                for hash in all { parts[Int(generator.next() % UInt64(partCount))].append(hash) }
                // Overlaps: every part also repeats a few members of the others.
                for index in parts.indices where !all.isEmpty {
                    parts[index].append(all[Int(generator.next() % UInt64(all.count))])
                }
                var union = HLLUnion()
                for part in parts.shuffled(using: &generator) {
                    let sketch = HLLSketch(hashes: part)
                    forms.insert(sketch.bytes[0])
                    sketch.bytes.withUnsafeBytes { bytes in
                        #expect(throws: Never.self) { try union.formUnion(bytes: bytes) }
                    }
                }
                let whole = HLLSketch(hashes: all)
                #expect(union.sketch() == whole, "\(size) hashes in \(partCount) parts")
                #expect(union.cardinality().bitPattern == whole.cardinality.bitPattern, "\(size) hashes in \(partCount) parts")
            }
        }
        #expect(forms == [0x11, 0x12, 0x13, 0x14])
    }

    /// FULL sketches whose registers take every value 0-31 (hashes made for a register and a
    /// value), united pairwise in both orders: each register keeps the larger value, bytes and
    /// count as the sketch of all the hashes.
    @Test func fullSketchesKeepEachRegistersMaximum() {
        var generator = SplitMix64(seed: 11)
        /// A hash for `register` with `value` (1-31): `value - 1` trailing zeros above the index.
        func hash(register: Int, value: Int) -> Int64 { Int64(bitPattern: UInt64(1) << UInt64(10 + value) | UInt64(register)) }
        func registers() -> [Int64] {
            (0..<HLLSketch.registerCount).compactMap { register in
                let value = Int(generator.next() % 32)
                return value == 0 ? nil : hash(register: register, value: value)
            }
        }
        for _ in 0..<20 {
            let (a, b) = (registers(), registers())
            let (first, second) = (HLLSketch(hashes: a), HLLSketch(hashes: b))
            #expect(first.bytes[0] == 0x14 && second.bytes[0] == 0x14)
            let whole = HLLSketch(hashes: a + b)
            for order in [[first, second], [second, first]] {
                var union = HLLUnion()
                for sketch in order { union.formUnion(sketch) }
                #expect(union.sketch() == whole)
                #expect(union.cardinality().bitPattern == whole.cardinality.bitPattern)
            }
        }
    }

    @Test func bytesThatAreNoSketchAreRefusedAndChangeNothing() throws {
        var union = HLLUnion()
        union.formUnion(HLLSketch(hashes: Self.hashes(0..<3)))
        let explicit = HLLSketch(hashes: Self.hashes(10..<12)).bytes
        let cases: [([UInt8], HLLSketchError.Kind)] = [
            ([], .malformed),
            ([0x12, 0x8B], .malformed),
            ([0x22, 0x8B, 0x7F], .unsupported),                 // schema version 2
            ([0x12, 0x8C, 0x7F] + explicit[3...], .unsupported), // log2m 12
            ([0x12, 0x8B, 0x3F] + explicit[3...], .unsupported), // sparse off
            ([0x10, 0x8B, 0x7F], .unsupported),                 // UNDEFINED
            ([0x15, 0x8B, 0x7F], .unsupported),
            ([0x11, 0x8B, 0x7F, 0x00], .malformed),
            (Array(explicit.dropLast()), .malformed),
            ([0x13, 0x8B, 0x7F, 0x00], .malformed),
            ([0x14, 0x8B, 0x7F] + [UInt8](repeating: 0, count: 1_279), .malformed),
        ]
        for (bytes, kind) in cases {
            let refused = bytes.withUnsafeBytes { raw in Result { () throws(HLLSketchError) in try union.formUnion(bytes: raw) } }
            #expect(throws: HLLSketchError.self) { try refused.get() }
            if case .failure(let error) = refused { #expect(error.kind == kind, "\(bytes.prefix(4)): \(error)") }
            #expect(throws: HLLSketchError.self) { try HLLSketch(validating: bytes) }
        }
        #expect(union.cardinality() == 3)
        #expect(try HLLSketch(validating: explicit).cardinality == 2)
    }
}
