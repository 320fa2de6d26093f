import Foundation
import Locking

/// Runs independent per-element-type work on all cores: the nightly run ranks, recommends, lints
/// and renders a thousand element types, each on its own.
public enum ParallelMap {
    /// `items.map(transform)`, computed in contiguous slices on up to `activeProcessorCount`
    /// threads; the result keeps the order of `items`. Small inputs run on the calling thread.
    public static func map<T: Sendable, U: Sendable>(_ items: [T], minimumPerThread: Int = 64,
                                              _ transform: @escaping @Sendable (T) -> U) -> [U]
    {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(1, items.count / minimumPerThread), 16)
        guard workers > 1 else { return items.map(transform) }
        let sliceSize = (items.count + workers - 1) / workers
        let slices = Locked<[Int: [U]]>([:])
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = (worker * sliceSize)..<min(items.count, (worker + 1) * sliceSize)
            let done = range.map { transform(items[$0]) }
            slices.withLock { $0[worker] = done }
        }
        return slices.withLock { all in (0..<workers).flatMap { all[$0] ?? [] } }
    }
}
