import Ranking
import Testing

/// The whole-count form of a split the rollups write and sum (`PeopleCounts.encode`, `add(encoded:into:)`):
/// the same bytes as `PeopleCounts.encoded`, sums that add up, and bytes that are no split refused.
@Suite struct FlatSplitTests {
    @Test func wholeCountsEncodeAsThePeopleCountsDoAndAddUp() throws {
        var selections = [Int64](repeating: 0, count: PersonBucket.count)
        var userDays = [Int64](repeating: 0, count: PersonBucket.count)
        selections[0] = 1
        userDays[0] = 1
        selections[17] = 300
        userDays[17] = 2
        selections[63] = (1 << 40) + 5
        userDays[63] = 0
        let bytes = PeopleCounts.encode(selections: selections, userDays: userDays)
        let split = try #require(PeopleCounts(encoded: bytes))
        #expect(split.encoded == bytes)
        #expect(split.selections[17] == 300 && split.userDays[17] == 2 && split.selections[63] == Double((1 << 40) + 5))

        var flat = [Int64](repeating: 0, count: PeopleCounts.flatCount)
        let twice = flat.withUnsafeMutableBufferPointer { flat in
            bytes.withUnsafeBytes { PeopleCounts.add(encoded: $0, into: flat) }
                && bytes.withUnsafeBytes { PeopleCounts.add(encoded: $0, into: flat) }
                && [UInt8]().withUnsafeBytes { PeopleCounts.add(encoded: $0, into: flat) }
        }
        #expect(twice)
        #expect(Array(flat[..<PersonBucket.count]) == selections.map { 2 * $0 })
        #expect(Array(flat[PersonBucket.count...]) == userDays.map { 2 * $0 })
        #expect(flat.withUnsafeBufferPointer { PeopleCounts(flat: $0) } == split.scaled(by: 2))
        #expect(flat.withUnsafeBufferPointer { PeopleCounts.encode(flat: $0) }
            == PeopleCounts.encode(selections: selections.map { 2 * $0 }, userDays: userDays.map { 2 * $0 }))
        #expect(PeopleCounts.encode(selections: [Int64](repeating: 0, count: 64), userDays: [Int64](repeating: 0, count: 64)).isEmpty)
    }

    @Test func bytesThatAreNoSplitAreRefused() {
        var flat = [Int64](repeating: 0, count: PeopleCounts.flatCount)
        for bad: [UInt8] in [[64, 1, 1], [5, 1, 1, 5, 1, 1], [7, 1, 1, 6, 1, 1], [3, 0x80], [3, 1],
                             [3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1]] {
            let added = flat.withUnsafeMutableBufferPointer { flat in bad.withUnsafeBytes { PeopleCounts.add(encoded: $0, into: flat) } }
            #expect(!added, "\(bad)")
            #expect(PeopleCounts(encoded: bad) == nil, "\(bad)")
        }
    }
}
