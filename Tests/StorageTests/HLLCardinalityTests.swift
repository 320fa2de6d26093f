import CivilTime
import Postgres
import Ranking
@testable import Sketches
@testable import Storage
import Testing
import TestSupport

/// `HLLUnion`'s count and union against postgresql-hll itself, compared as the bits of the double
/// (read in binary, so no text rounding hides a difference): single sketches of every size around
/// each switch (EXPLICIT to SPARSE at 161 hashes, SPARSE to FULL at 640 filled registers, linear
/// counting to the raw estimate, the raw estimate to the large-range correction); unions of 2-30
/// sketches of mixed forms, including lists whose union outgrows the limit; and the users of real
/// rollup rows, read by `RankingQuery` on one connection and on two, against the SQL union of the
/// same rows.
@Suite(TestDatabase.enabled) struct HLLCardinalityTests {
    /// `query`'s single float8 column per row, as bits, with its int4 key in column 0.
    static func serverBits(_ query: PostgresQuery, on connection: PostgresConnection) throws -> [Int32: UInt64] {
        var out: [Int32: UInt64] = [:]
        try connection.queryBinary(query) { row in
            out[try #require(try row.int32(0))] = UInt64(bitPattern: try #require(try row.int64(1)))
        }
        return out
    }

    static func expectSame(_ swift: Double, _ serverBits: UInt64?, _ what: Comment,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        guard let serverBits else {
            Issue.record("no server value: \(what)", sourceLocation: sourceLocation)
            return
        }
        let server = Double(bitPattern: serverBits)
        if server.isNaN {
            #expect(swift.isNaN, "\(what): server NaN, Swift \(swift)", sourceLocation: sourceLocation)
        } else {
            #expect(swift.bitPattern == serverBits, "\(what): server \(server), Swift \(swift)", sourceLocation: sourceLocation)
        }
    }

    /// Sets of the people 1...n: every n to past the list limit, around SPARSE to FULL, through
    /// the end of linear counting, and large ones.
    @Test func sketchesOfPeopleCountAsTheExtension() throws {
        try StorageFixture.with(prefix: "hllcard") { fixture in
            let conn = try fixture.connect()
            let hashes = (1...300_000).map { MurmurHash3.hash(Int64($0)) }
            let full = (161...2_000).first { HLLSketch(hashes: Array(hashes[0..<$0])).bytes[0] == 0x14 }!
            let rawFrom = stride(from: 3_000, to: 20_000, by: 1).first { n in
                var union = HLLUnion()
                union.formUnion(HLLSketch(hashes: Array(hashes[0..<n])))
                return union.range() == .raw
            }!
            var sizes = Array(0...170) + Array(full - 3...full + 3) + Array(rawFrom - 40...rawFrom + 40)
            sizes += [200, 500, 1_000, 2_500, 10_000, 30_000, 100_000, 300_000]
            let server = try Self.serverBits("""
                SELECT n, COALESCE(hll_cardinality(hll_add_agg(hll_hash_bigint(p::int8))), 0)
                FROM unnest(\(sizes.map(Int32.init))::int4[]) n LEFT JOIN LATERAL generate_series(1, n) p ON true
                GROUP BY n
                """, on: conn)
            var ranges = Set<HLLUnion.Range?>()
            for n in sizes {
                let sketch = HLLSketch(hashes: Array(hashes[0..<n]))
                var union = HLLUnion()
                union.formUnion(sketch)
                ranges.insert(union.range())
                Self.expectSame(sketch.cardinality, server[Int32(n)], "\(n) people")
            }
            #expect(ranges == [nil, .linear, .raw])
        }
    }

    /// Raw hash values that put every register at a chosen value: the raw estimate, the
    /// large-range correction, and past it (the logarithm of a negative number: NaN on both sides).
    @Test func registerArraysUpToTheLargeRangeCountAsTheExtension() throws {
        try StorageFixture.with(prefix: "hllcard") { fixture in
            let conn = try fixture.connect()
            // value v in register i: the hash (1 << (11 + v - 1)) | i.
            func filled(_ values: (Int) -> Int) -> [Int64] {
                (0..<HLLSketch.registerCount).map { Int64(bitPattern: UInt64(1) << UInt64(10 + values($0))) | Int64($0) }
            }
            var sets: [[Int64]] = (1...31).map { value in filled { _ in value } }
            sets += (20...31).map { top in filled { 20 + $0 % (top - 19) } }
            var ranges = Set<HLLUnion.Range?>()
            for (index, hashes) in sets.enumerated() {
                let server = try Self.serverBits("""
                    SELECT 0, hll_cardinality(hll_add_agg(h::hll_hashval)) FROM unnest(\(hashes)::int8[]) h
                    """, on: conn)
                var union = HLLUnion()
                union.formUnion(HLLSketch(hashes: hashes))
                ranges.insert(union.range())
                Self.expectSame(HLLSketch(hashes: hashes).cardinality, server[0], "register set \(index)")
            }
            #expect(ranges.isSuperset(of: [.raw, .large]))
        }
    }

    /// Groups of 2-30 sketches of every form, overlapping, stored as the rollups store them: the
    /// server's union (bytes), its count and `rollup_union_cardinality` against `HLLUnion`.
    @Test func unionsOfMixedSketchesCountAsTheExtension() throws {
        try StorageFixture.with(prefix: "hllcard") { fixture in
            let conn = try fixture.connect()
            var generator = SplitMix64(seed: 2_612)
            var groups: [[HLLSketch]] = []
            for group in 0..<240 {
                let partCount = generator.int(2...30)
                // Pools of every scale: small ones make lists whose union may pass 160.
                let poolSize = [40, 120, 170, 400, 2_000, 60_000][group % 6]
                let base = group * 100_000
                groups.append((0..<partCount).map { _ in
                    let size = [0, 1, 3, 8, 30, 90, 160, 161, 300, 900, 3_000][generator.int(0...10)]
                    return HLLSketch(hashes: (0..<size).map { _ in MurmurHash3.hash(Int64(base + generator.int(0...poolSize - 1))) })
                })
            }
            try conn.execute("CREATE TABLE parts (g int4, users hll NOT NULL)")
            try conn.copyInBinary("COPY parts (g, users) FROM STDIN (FORMAT binary)") { writer in
                for (g, sketches) in groups.enumerated() {
                    for sketch in sketches {
                        writer.beginRow(fields: 2)
                        writer.append(Int32(g))
                        writer.appendBytes(sketch.bytes)
                        try writer.endRow()
                    }
                }
            }
            let counts = try Self.serverBits("SELECT g, hll_cardinality(hll_union_agg(users)) FROM parts GROUP BY g", on: conn)
            let rollupCounts = try Self.serverBits("SELECT g, rollup_union_cardinality(users) FROM parts GROUP BY g", on: conn)
            var unions: [Int32: [UInt8]] = [:]
            try conn.queryBinary("SELECT g, hll_union_agg(users) FROM parts GROUP BY g") { row in
                unions[try #require(try row.int32(0))] = row.bytes(1)
            }
            var partForms = Set<UInt8>()
            var unionForms = Set<UInt8>()
            var listsBecameRegisters = 0
            for (g, sketches) in groups.enumerated() {
                var union = HLLUnion()
                for sketch in sketches {
                    partForms.insert(sketch.bytes[0])
                    try sketch.bytes.withUnsafeBytes { try union.formUnion(bytes: $0) }
                }
                let united = union.sketch()
                unionForms.insert(united.bytes[0])
                if united.bytes[0] != 0x12, sketches.allSatisfy({ $0.bytes[0] <= 0x12 }) { listsBecameRegisters += 1 }
                #expect(united.bytes == unions[Int32(g)], "group \(g)")
                let count = union.cardinality()
                Self.expectSame(count, counts[Int32(g)], "group \(g)")
                Self.expectSame(count, rollupCounts[Int32(g)], "group \(g), rollup_union_cardinality")
            }
            #expect(partForms == [0x11, 0x12, 0x13, 0x14])
            #expect(unionForms.isSuperset(of: [0x12, 0x13, 0x14]))
            #expect(listsBecameRegisters > 0)
        }
    }

    /// Real rollup rows (days and blocks, sketches of every form): `RankingQuery`'s users per
    /// command and per element type, on one connection and split over two, equal the SQL union of
    /// the window's daily rows.
    @Test func theUsersOfRollupRowsAreTheSQLUnion() throws {
        try StorageFixture.with(prefix: "hllcard") { fixture in
            let conn = try fixture.connect()
            let app = try LayoutFixtures.createApp("mail", on: conn)
            var elements: [Int32] = []
            for name in ["mail.message", "mail.mailbox", "mail.thread"] {
                elements.append(try LayoutFixtures.id(name, in: "element_types", app: app, on: conn))
            }
            var commands: [Int32] = []
            for name in ["reply", "forward", "archive", "delete"] {
                commands.append(try LayoutFixtures.id(name, in: "commands", app: app, on: conn))
            }
            var generator = SplitMix64(seed: 88)
            let asOf = try #require(CivilDate(parsing: "2026-11-29")).dayNumber
            for offset in 0..<30 {
                let day = CivilDate(dayNumber: asOf - offset).description
                for (e, element) in elements.enumerated() {
                    for (c, command) in commands.enumerated() where (e + c + offset) % 3 != 0 {
                        let people = [3, 60, 150, 400, 1_500][(e + c) % 5]
                        let low = generator.int(1...500)
                        try LayoutFixtures.insertEvents(app: app, day: day, elementType: element, command: command,
                                                        count: people + generator.int(0...people), users: low...(low + people - 1),
                                                        on: conn)
                    }
                }
            }
            _ = try RollupStore().rollUp(appID: app, on: conn)
            #expect(try conn.query("SELECT count(*)::int FROM rollup_blocks WHERE app_id = \(app)")[0].decode(Int.self, at: 0) > 0)
            let forms = try conn.query("SELECT DISTINCT get_byte(users::text::bytea, 0) FROM daily_command_usage")
                .map { try $0.decode(Int.self, at: 0) }
            #expect(Set(forms).isSuperset(of: [0x12, 0x13, 0x14]))

            let window = RankingWindow(asOf: CivilDate(dayNumber: asOf), length: 28)
            let from = window.firstDay
            let to = window.asOf
            var expectedCommands: [String: Int] = [:]
            for row in try conn.query("""
                SELECT e.name || '/' || c.name, round(hll_cardinality(hll_union_agg(d.users)))::int
                FROM daily_command_usage d JOIN element_types e USING (app_id, element_type_id) JOIN commands c USING (app_id, command_id)
                WHERE d.app_id = \(app) AND d.day BETWEEN \(from) AND \(to) GROUP BY 1
                """)
            {
                expectedCommands[try row.decode(String.self, at: 0)] = try row.decode(Int.self, at: 1)
            }
            var expectedElements: [String: Int] = [:]
            for row in try conn.query("""
                SELECT e.name, round(hll_cardinality(hll_union_agg(d.users)))::int
                FROM daily_element_usage d JOIN element_types e USING (app_id, element_type_id)
                WHERE d.app_id = \(app) AND d.day BETWEEN \(from) AND \(to) GROUP BY 1
                """)
            {
                expectedElements[try row.decode(String.self, at: 0)] = try row.decode(Int.self, at: 1)
            }
            #expect(expectedCommands.values.contains { $0 > 1_000 } && expectedCommands.values.contains { $0 < 100 })

            let helper = try fixture.connect()
            for split in [false, true] {
                let activities = try RankingQuery(appID: app, window: window)
                    .activities(on: conn, alongside: split ? helper : nil)
                var commandUsers: [String: Int] = [:]
                var elementUsers: [String: Int] = [:]
                for activity in activities {
                    elementUsers[activity.elementType] = activity.users
                    for (command, users) in activity.commandUsers { commandUsers[activity.elementType + "/" + command] = users }
                }
                #expect(commandUsers == expectedCommands, "split: \(split)")
                #expect(elementUsers == expectedElements, "split: \(split)")
            }
        }
    }
}
