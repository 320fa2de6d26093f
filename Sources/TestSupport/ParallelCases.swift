import Foundation
import Locking

/// Independent test cases checked on every core, on threads of their own.
///
/// Not `DispatchQueue.concurrentPerform`: that runs on libdispatch's global worker threads, as
/// many as there are cores, and a few minutes of generated cases there starve everything else the
/// test process queues on them. URLSession on Linux (swift-corelibs-foundation) is such a user: a
/// client test that ran alongside the property tests got its server's answer only after 60 s, so
/// its flush timed out (seen in CI, and reproduced by running the two suites together).
public enum ParallelCases {
    /// `body(index)` once for every index in `0..<count`, on as many threads as there are active
    /// cores (the calling thread being one), each taking the next index when done with one.
    @available(*, noasync, message: "waits for other threads: call it from a synchronous test")
    public static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        _ = ForkJoin.map(count: count, threads: ProcessInfo.processInfo.activeProcessorCount, body)
    }
}
