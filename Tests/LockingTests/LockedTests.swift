import Dispatch
import Locking
import Testing

@Suite("Locked: a value shared by threads")
struct LockedTests {
    /// Increments that are not under one lock lose updates when threads interleave; under the lock
    /// none is lost.
    @Test func concurrentIncrementsUnderTheLockAreNeverLost() {
        let counter = Locked(0)
        let log = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<20_000 {
                counter.withLock { $0 += 1 }
            }
            log.withLock { $0.append(thread) }
        }
        #expect(counter.withLock { $0 } == 160_000)
        #expect(log.withLock { $0.sorted() } == Array(0..<8))
    }

    /// Read-modify-write of a compound value is atomic as a whole: the two fields never disagree.
    @Test func aCompoundValueIsChangedAsAWhole() {
        struct Pair { var a = 0, b = 0 }
        let pair = Locked(Pair())
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for _ in 0..<10_000 {
                if index % 2 == 0 {
                    pair.withLock { $0.a += 1; $0.b += 1 }
                } else if pair.withLock({ $0.a != $0.b }) {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(pair.withLock { $0.a } == 20_000)
    }

    struct Refused: Error, Equatable { var code: Int }

    /// A typed error thrown inside passes through with its type, and the lock is released: the
    /// next `withLock` on the same thread does not deadlock and sees the change made before the throw.
    @Test func aThrowReleasesTheLockAndKeepsItsType() {
        let value = Locked(1)
        do throws(Refused) {
            try value.withLock { (number: inout Int) throws(Refused) in
                number = 2
                throw Refused(code: 7)
            }
            Issue.record("expected a throw")
        } catch {
            #expect(error == Refused(code: 7))
        }
        #expect(value.withLock { $0 } == 2)
    }
}
