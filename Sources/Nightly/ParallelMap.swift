import Foundation
import Locking

/// Runs independent per-element-type work on all cores: the nightly run ranks, recommends, lints
/// and renders a thousand element types, each on its own.
///
/// The work is pure (no I/O, no locks held across it), so it is cut into one contiguous slice per
/// core, and the slices run at once on threads of our own (`ForkJoin`: the calling thread takes the
/// first slice); the same threads the nightly path uses for its second connection, so the path has
/// one concurrency story (see `NightlyRun`).
public enum ParallelMap {
    /// The cores the work is shared out to.
    public static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// `items.map(transform)`, computed in contiguous slices on up to `activeProcessorCount`
    /// threads (at least `minimumPerThread` items each); the result keeps the order of `items`.
    /// Small inputs run on the calling thread alone.
    public static func map<T: Sendable, U: Sendable>(_ items: [T], minimumPerThread: Int = 64,
                                                     _ transform: @escaping @Sendable (T) -> U) -> [U]
    {
        let workers = min(cores, max(1, items.count / minimumPerThread), 16)
        guard workers > 1 else { return items.map(transform) }
        let sliceSize = (items.count + workers - 1) / workers
        let slices = ForkJoin.map(shares: workers) { worker in
            (worker * sliceSize..<min(items.count, (worker + 1) * sliceSize)).map { transform(items[$0]) }
        }
        return Array(slices.joined())
    }
}
