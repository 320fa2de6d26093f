import Postgres
@testable import Sketches
import Testing
import TestSupport

/// `HLLSketch` against postgresql-hll itself: for sets of every size up to past the explicit
/// limit, around the SPARSE to FULL promotion, large ones, with repeats and extreme values, the
/// Swift bytes equal `hll_add_agg(hll_hash_bigint(person))` (and, from raw hash values,
/// `hll_add_agg(hash::hll_hashval)`, which reaches hash values no person is known to give); the
/// server takes the Swift bytes through binary COPY, and its union of them equals the sketch of
/// the union.
@Suite(TestDatabase.enabled) struct HLLIdentityTests {
    static let extremes: [Int64] = [0, 1, -1, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 1 << 11, -(1 << 11), 42]

    /// Sets of people: all sizes 0-170, then larger ones, each drawn from the extremes and random values.
    static func peopleSets() -> [[Int64]] {
        var generator = SplitMix64(seed: 2026)
        let pool = extremes + (0..<30_000).map { _ in Int64(bitPattern: generator.next()) }
        var sizes = Array(0...170) + [200, 320, 500, 1_000, 3_000, 10_000, 30_000]
        // The SPARSE to FULL promotion (640 filled registers) of the pool's prefixes.
        let full = (500...1_500).first { HLLSketch(hashes: pool[0..<$0].map { MurmurHash3.hash($0) }).bytes[0] == 0x14 }!
        sizes += [full - 2, full - 1, full, full + 1]
        var sets = sizes.map { Array(pool[0..<$0]) }
        sets.append(Array(pool[0..<100]) + Array(pool[0..<100]))            // repeats
        sets.append(Array(pool[0..<161]).reversed() + Array(pool[0..<50]))
        sets.append([Int64](repeating: -7, count: 1_000))
        return sets
    }

    /// Raw hash values: zero (register value 0), values whose register value is capped at 31,
    /// every register filled, and the signed order of an explicit list with extreme values.
    static func hashSets() -> [[Int64]] {
        var generator = SplitMix64(seed: 13)
        let capped = (0..<64).map { Int64(bitPattern: UInt64(1) << UInt64(11 + $0 % 53)) | Int64($0) }
        let everyRegister = (0..<2_048).map { Int64($0) | Int64(1 + $0 % 40) << 11 }
        let random = (0..<700).map { _ in Int64(bitPattern: generator.next()) }
        return [extremes, [0], [0, 0, 0], capped, extremes + capped + Array(random[0..<86]), extremes + capped + Array(random[0..<87]),
                capped + random, everyRegister, everyRegister + capped, Array(random[0..<639]) + [0]]
    }

    @Test func personHashesAreHLLHashBigint() throws {
        try StorageFixture.with(prefix: "hll") { fixture in
            let conn = try fixture.connect()
            let people = Self.peopleSets().last(where: { $0.count == 30_000 })!
            let hashes = try conn.query("""
                SELECT hll_hash_bigint(p)::text::int8 FROM unnest(\(people)::int8[]) WITH ORDINALITY AS x(p, n) ORDER BY n
                """).map { try $0.decode(Int64.self, at: 0) }
            #expect(hashes == people.map { MurmurHash3.hash($0) })
        }
    }

    @Test func sketchesOfPeopleAreByteIdentical() throws {
        try StorageFixture.with(prefix: "hll") { fixture in
            let conn = try fixture.connect()
            var kinds = Set<UInt8>()
            for people in Self.peopleSets() {
                let expected = try conn.query("""
                    SELECT COALESCE(hll_add_agg(hll_hash_bigint(p)), hll_empty())::text FROM unnest(\(people)::int8[]) p
                    """)[0].decode(String.self, at: 0)
                let sketch = HLLSketch(hashes: people.map { MurmurHash3.hash($0) })
                kinds.insert(sketch.bytes[0])
                #expect(Self.text(sketch) == expected, "\(people.count) people")
            }
            #expect(kinds == [0x11, 0x12, 0x13, 0x14])   // every representation was reached
        }
    }

    @Test func sketchesOfRawHashesAreByteIdentical() throws {
        try StorageFixture.with(prefix: "hll") { fixture in
            let conn = try fixture.connect()
            for hashes in Self.hashSets() {
                let expected = try conn.query("""
                    SELECT hll_add_agg(h::hll_hashval)::text FROM unnest(\(hashes)::int8[]) h
                    """)[0].decode(String.self, at: 0)
                #expect(Self.text(HLLSketch(hashes: hashes)) == expected, "\(hashes.count) hashes")
            }
        }
    }

    /// Swift sketches of parts, stored by binary COPY, united by the server: the sketch of the whole.
    @Test func theServerStoresAndUnitesSwiftSketches() throws {
        try StorageFixture.with(prefix: "hll") { fixture in
            let conn = try fixture.connect()
            try conn.execute("CREATE TABLE parts (k int4, users hll NOT NULL)")
            let sets = Self.peopleSets().filter { $0.count > 3 }
            try conn.copyInBinary("COPY parts (k, users) FROM STDIN (FORMAT binary)") { writer in
                for (k, people) in sets.enumerated() {
                    let third = people.count / 3
                    for part in [people[..<third], people[third..<(2 * third)], people[(2 * third)...]] {
                        writer.beginRow(fields: 2)
                        writer.append(Int32(k))
                        writer.appendBytes(HLLSketch(hashes: part.map { MurmurHash3.hash($0) }).bytes)
                        try writer.endRow()
                    }
                }
            }
            let unions = try conn.query("SELECT hll_union_agg(users)::text FROM parts GROUP BY k ORDER BY k")
                .map { try $0.decode(String.self, at: 0) }
            #expect(unions == sets.map { Self.text(HLLSketch(hashes: $0.map { MurmurHash3.hash($0) })) })
        }
    }

    /// The bytes as `hll_out` spells them.
    static func text(_ sketch: HLLSketch) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(sketch.bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
