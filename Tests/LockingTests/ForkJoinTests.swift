import Foundation
import Locking
import Testing

/// `ForkJoin`: shares run at once on threads of their own and are all done before the call
/// returns or throws. Nothing is timed: a share that waits for the others gives up only after ten
/// minutes, so a loaded machine only delays the meeting, while shares run one after another would
/// never meet.
@Suite("ForkJoin: shares on threads of our own, joined")
struct ForkJoinTests {
    struct Failure: Error, Equatable { let share: Int }

    /// Waits until `count` shares have arrived; false when that never happens.
    static func meet(_ arrived: Locked<Int>, count: Int) -> Bool {
        arrived.withLock { $0 += 1 }
        let deadline = Date().addingTimeInterval(600)
        while arrived.withLock({ $0 }) < count {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    @Test(arguments: [1, 2, 5]) func everyShareRunsAtOnceAndTheResultsKeepTheirOrder(shares: Int) {
        let arrived = Locked(0)
        let results = ForkJoin.map(shares: shares) { index in
            (index, Self.meet(arrived, count: shares))
        }
        #expect(results.map(\.0) == Array(0..<shares))
        #expect(results.allSatisfy { $0.1 })
        #expect(ForkJoin.map(shares: 0) { $0 }.isEmpty)
    }

    @Test func theFirstShareInOrderThrowsAfterEveryShareIsDone() {
        let finished = Locked(0)
        #expect(throws: Failure(share: 1)) {
            _ = try ForkJoin.map(shares: 4) { (index) throws(Failure) -> Int in
                defer { finished.withLock { $0 += 1 } }
                if index == 3 { throw Failure(share: 3) }
                if index == 1 { throw Failure(share: 1) }
                usleep(index == 2 ? 50_000 : 0)
                return index
            }
        }
        #expect(finished.withLock { $0 } == 4)
    }

    @Test func bothRunAtOnceAndReturnBothResults() throws {
        let arrived = Locked(0)
        let (mine, theirs) = try ForkJoin.both({ ("mine", Self.meet(arrived, count: 2)) },
                                               alongside: { ("theirs", Self.meet(arrived, count: 2)) })
        #expect(mine == ("mine", true) && theirs == ("theirs", true))
    }

    @Test func bothRethrowsTheCallersErrorFirstAndWaitsForTheOther() {
        let otherDone = Locked(false)
        #expect(throws: Failure(share: 0)) {
            _ = try ForkJoin.both({ () throws -> Int in throw Failure(share: 0) }, alongside: { () throws -> Int in
                usleep(50_000)
                otherDone.withLock { $0 = true }
                throw Failure(share: 1)
            })
        }
        #expect(otherDone.withLock { $0 })
        #expect(throws: Failure(share: 1)) {
            _ = try ForkJoin.both({ 0 }, alongside: { () throws -> Int in throw Failure(share: 1) })
        }
    }

    /// `map(count:threads:)`: every index computed once, the results in index order, for no item,
    /// fewer items than threads, and many items of uneven cost.
    @Test func mapOfCountComputesEachItemOnceInOrder() {
        for (count, threads) in [(0, 2), (1, 4), (3, 8), (200, 2), (200, 3)] {
            let calls = Locked([Int](repeating: 0, count: count))
            let results = ForkJoin.map(count: count, threads: threads) { index -> String in
                calls.withLock { $0[index] += 1 }
                if index % 17 == 0 { usleep(2_000) }   // uneven costs
                return "item \(index)"
            }
            #expect(results == (0..<count).map { "item \($0)" }, "\(count) items, \(threads) threads")
            #expect(calls.withLock { $0 }.allSatisfy { $0 == 1 })
        }
    }
}
