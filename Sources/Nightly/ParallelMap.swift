import Foundation
import Locking
import Synchronization

/// Runs independent per-element-type work on all cores: the nightly run ranks, recommends, lints
/// and renders a thousand element types, each on its own.
///
/// The work is pure (no I/O, no locks held across it). It runs at once on threads of our own
/// (`ForkJoin`: the calling thread is one of them), the same threads the nightly path uses for its
/// second connection, so the path has one concurrency story (see `NightlyRun`).
///
/// Shared out in small chunks that each thread takes in turn as it finishes one, not in one
/// contiguous slice per thread: element types differ in cost by orders of magnitude (a menu of 9
/// commands with nothing to change against one whose ladder climbs to regroup), so with fixed
/// slices one thread ran on alone for a tenth of the night after the other had finished.
public enum ParallelMap {
    /// The cores the work is shared out to.
    public static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// `items.map(transform)`, computed on up to `activeProcessorCount` threads (when there are at
    /// least `minimumPerThread` items for each); the result keeps the order of `items`. Small
    /// inputs run on the calling thread alone.
    public static func map<T: Sendable, U: Sendable>(_ items: [T], minimumPerThread: Int = 64,
                                                     _ transform: @escaping @Sendable (T) -> U) -> [U]
    {
        let workers = min(cores, max(1, items.count / minimumPerThread), 16)
        guard workers > 1 else { return items.map(transform) }
        // About 16 chunks per thread: few enough that taking one costs nothing, many enough that
        // the last ones even out the threads' finishing times.
        let chunk = max(1, items.count / (workers * 16))
        let cursor = Cursor()
        return [U](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            let results = Results(base: buffer.baseAddress!)
            _ = ForkJoin.map(shares: workers) { _ in
                while true {
                    let start = cursor.next.add(chunk, ordering: .relaxed).oldValue
                    guard start < items.count else { return }
                    for index in start..<min(items.count, start + chunk) {
                        (results.base + index).initialize(to: transform(items[index]))
                    }
                }
            }
            // ForkJoin has joined every thread: each index was initialized exactly once.
            initialized = items.count
        }
    }

    private final class Cursor: Sendable {
        let next = Atomic<Int>(0)
    }

    /// The result buffer, written at disjoint indices by the threads.
    private struct Results<U>: @unchecked Sendable {
        let base: UnsafeMutablePointer<U>
    }
}
