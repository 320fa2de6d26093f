@testable import Rollups
import Testing

/// `SmallCounts` against a dictionary count, for values arriving in any order: below the first
/// one seen (the dense range grows downwards), far above it, negative and past the dense limit;
/// merged counts equal the counts of both inputs together.
@Suite struct SmallCountsTests {
    static func reference(_ values: [Int32]) -> (values: [Int32], counts: [Int64]) {
        var counts: [Int32: Int64] = [:]
        for value in values { counts[value, default: 0] += 1 }
        let keys = counts.keys.sorted()
        return (keys, keys.map { counts[$0]! })
    }

    static let orders: [[Int32]] = [
        [300, 299, 301, 250, 1023, 0, 300, 1024, -1, -7, 5_000, 64, 64, 299],
        Array(stride(from: 900, through: 0, by: -37)) + Array(0..<40) + [Int32.max, Int32.min],
        (0..<2_000).map { Int32(($0 * 7_919) % 1_300) - 100 },
    ]

    @Test(arguments: orders) func countsEveryValueWhereverItFalls(values: [Int32]) {
        var counts = SmallCounts()
        for value in values { counts.add(value) }
        let expected = Self.reference(values)
        #expect(counts.histogram.values == expected.values)
        #expect(counts.histogram.counts == expected.counts)
    }

    @Test func mergedCountsAreTheCountsOfBoth() {
        let first = Self.orders[0], second = Self.orders[2]
        var left = SmallCounts(), right = SmallCounts(), both = SmallCounts()
        for value in first { left.add(value); both.add(value) }
        for value in second { right.add(value); both.add(value) }
        left.merge(right)
        #expect(left == both)
        #expect(left.histogram.values == Self.reference(first + second).values)
        #expect(left.histogram.counts == Self.reference(first + second).counts)
    }
}
