import Foundation
import Locking
import Nightly
import Testing

/// `ParallelMap.map` is `map` computed on several threads: the same results in the same order,
/// each item transformed exactly once, whatever the sizes and however uneven the items' costs.
/// (How many threads end up doing the work is up to the scheduler: on a loaded machine the calling
/// thread may take every chunk before the other starts, so no test asserts it.)
@Suite struct ParallelMapTests {
    @Test(arguments: [0, 1, 2, 63, 64, 65, 128, 1000, 4097])
    func sameResultsInOrderEachItemOnce(count: Int) {
        let calls = Locked([Int](repeating: 0, count: count))
        let items = Array(0..<count)
        let mapped = ParallelMap.map(items) { item -> String in
            calls.withLock { $0[item] += 1 }
            // Uneven work: every 97th item costs far more than the others.
            var x = UInt64(item)
            for _ in 0..<(item % 97 == 0 ? 20_000 : 10) { x = x &* 6364136223846793005 &+ 1442695040888963407 }
            return "\(item):\(x & 1)"
        }
        #expect(mapped.count == count)
        #expect(mapped.map { Int($0.split(separator: ":")[0])! } == items)
        #expect(calls.withLock { $0 }.allSatisfy { $0 == 1 })
    }

    /// Reference-counted results are kept alive and released once (the result buffer is written
    /// in place from several threads).
    @Test func classResultsSurvive() {
        final class Box: Sendable { let value: Int; init(_ value: Int) { self.value = value } }
        let boxes = ParallelMap.map(Array(0..<3000)) { Box($0 * 2) }
        #expect(boxes.enumerated().allSatisfy { $0.element.value == $0.offset * 2 })
    }
}
