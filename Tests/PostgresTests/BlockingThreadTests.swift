import Foundation
import Locking
import Postgres
import Testing

/// `BlockingThread`: blocking work runs on threads of its own, never on the cooperative pool.
@Suite("BlockingThread")
struct BlockingThreadTests {
    /// One more body than the cooperative pool has threads, each blocked until all of them have
    /// arrived: on the pool, the bodies that arrived first would hold every thread and the last
    /// could never start (each would give up after ten minutes); on threads of their own they all
    /// meet. Nothing is timed: a loaded machine only delays the meeting.
    @Test func moreBlockedBodiesThanThePoolHasThreadsAllMeet() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let arrived = Locked(0)
        let met = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await BlockingThread.run {
                        arrived.withLock { $0 += 1 }
                        let deadline = Date().addingTimeInterval(600)
                        while arrived.withLock({ $0 }) < count {
                            if Date() > deadline { return false }
                            usleep(1_000)
                        }
                        return true
                    }
                }
            }
            var all = true
            for try await result in group where !result { all = false }
            return all
        }
        #expect(met)
    }

    @Test func returnsTheValueAndRethrowsTheError() async throws {
        struct Failure: Error, Equatable {}
        #expect(try await BlockingThread.run { 42 } == 42)
        await #expect(throws: Failure.self) { try await BlockingThread.run { throw Failure() } }
    }
}
