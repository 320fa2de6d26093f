import Foundation
import Outcomes
import Testing

@Suite struct LatencyHistogramTests {
    @Test func bucketsAreLogSpacedAndCoverTheAPIRange() {
        let bounds = LatencyHistogram.lowerBounds
        #expect(bounds.first == 0)
        #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 })
        #expect(bounds.last! <= LatencyHistogram.maximumLatency)
        #expect(bounds.count == 569)
        // Above the linear part each bucket is 2^(1/32) - 1 = 2.19% wide, give or take the 1 ms that
        // rounding the bounds to whole milliseconds moves them.
        for i in 64..<(bounds.count - 1) {
            let width = bounds[i + 1] - bounds[i]
            #expect(width >= 1 && Double(width) <= Double(bounds[i]) * 0.0219 + 1)
        }
    }

    @Test(arguments: [0, 1, 63, 64, 65, 100, 127, 128, 999, 1000, 60_000, 3_599_999, 3_600_000])
    func everyLatencyFallsInTheBucketHoldingIt(latency: Int) {
        let bucket = LatencyHistogram.bucket(of: latency)
        let range = LatencyHistogram.range(of: bucket)
        #expect(range.lower <= Double(latency) && Double(latency) < range.upper)
    }

    @Test func eachBoundStartsItsOwnBucket() {
        for (i, bound) in LatencyHistogram.lowerBounds.enumerated() {
            #expect(LatencyHistogram.bucket(of: bound) == i)
            if i > 0 { #expect(LatencyHistogram.bucket(of: bound - 1) == i - 1) }
        }
        // Past the API's limit (a stored latency is not checked again): the last bucket.
        let last = LatencyHistogram.lowerBounds.count - 1
        for latency in [LatencyHistogram.maximumLatency + 1, 4_194_304, 100_000_000, Int(Int32.max)] {
            #expect(LatencyHistogram.bucket(of: latency) == last)
        }
    }

    /// Every latency up to past the limit, against a plain search of the bounds.
    @Test func bucketsAgreeWithASearchOfTheBounds() {
        let bounds = LatencyHistogram.lowerBounds
        var expected = 0
        for latency in stride(from: -3, to: LatencyHistogram.maximumLatency + 70_000, by: 1) where latency % 97 == 0 || latency < 5_000 {
            while expected + 1 < bounds.count, bounds[expected + 1] <= latency { expected += 1 }
            guard LatencyHistogram.bucket(of: latency) == expected else {
                Issue.record("latency \(latency): bucket \(LatencyHistogram.bucket(of: latency)), expected \(expected)")
                return
            }
        }
    }

    @Test func mergingIsExactAndOrderFree() {
        var random = SeededRandom(seed: 7)
        let samples = (0..<5000).map { _ in random.latency(median: 900, sigma: 0.7) }
        var whole = LatencyHistogram()
        samples.forEach { whole.add(latency: $0) }
        var parts = (0..<7).map { _ in LatencyHistogram() }
        for (i, sample) in samples.enumerated() { parts[i % 7].add(latency: sample) }
        var forward = LatencyHistogram()
        parts.forEach { forward.merge($0) }
        var backward = LatencyHistogram()
        parts.reversed().forEach { backward.merge($0) }
        #expect(forward == whole)
        #expect(backward == whole)
        #expect(whole.total == 5000)
    }

    @Test func quantilesAreWithinABucketOfTheSampleQuantiles() {
        var random = SeededRandom(seed: 11)
        let samples = (0..<20_000).map { _ in random.latency(median: 1200, sigma: 0.5) }.sorted()
        var histogram = LatencyHistogram()
        samples.forEach { histogram.add(latency: $0) }
        for q in [0.25, 0.5, 0.75, 0.9] {
            let exact = Double(samples[Int(q * Double(samples.count))])
            let estimate = histogram.quantile(q)!
            #expect(abs(estimate.estimate - exact) / exact < 0.022)
            #expect(estimate.lower < estimate.estimate && estimate.estimate < estimate.upper)
        }
    }

    @Test func anEmptyHistogramHasNoQuantile() {
        #expect(LatencyHistogram().quantile(0.5) == nil)
        #expect(OutcomeComparison.medianDifference(old: LatencyHistogram(), new: LatencyHistogram()) == nil)
    }
}
