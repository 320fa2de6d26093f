import Foundation
@testable import MenurankClient
import Testing

/// How far the cursor may move with batches in flight at once: only past a prefix of acknowledged
/// batches, whatever order their answers come in.
@Suite("MenurankClient: batches in flight")
struct InFlightBatchesTests {
    static func position(_ offset: Int, segment: UInt64 = 1) -> EventJournal.Position {
        EventJournal.Position(segment: segment, offset: offset, index: offset / 10)
    }

    @Test func aBatchAcknowledgedBeforeTheOnesAheadOfItMovesNothingUntilTheyAreAcknowledged() {
        var inFlight = InFlightBatches()
        let first = inFlight.add(end: Self.position(100))
        let second = inFlight.add(end: Self.position(200))
        let third = inFlight.add(end: Self.position(300))
        third.acknowledgedThrough = third.end
        #expect(inFlight.settle() == nil)
        second.acknowledgedThrough = second.end
        #expect(inFlight.settle() == nil)
        #expect(inFlight.count == 3)
        first.acknowledgedThrough = first.end
        #expect(inFlight.settle() == Self.position(300))
        #expect(inFlight.count == 0)
        #expect(inFlight.settle() == nil)
    }

    @Test func theCursorStopsAtTheFirstBatchNotAcknowledged() {
        var inFlight = InFlightBatches()
        let first = inFlight.add(end: Self.position(100))
        inFlight.add(end: Self.position(200))
        let third = inFlight.add(end: Self.position(300))
        first.acknowledgedThrough = first.end
        third.acknowledgedThrough = third.end
        #expect(inFlight.settle() == Self.position(100))
        #expect(inFlight.count == 2)
        #expect(inFlight.lastEnd == Self.position(300))
    }

    @Test func theAcknowledgedFirstPartOfASplitBatchMovesTheCursorIntoIt() {
        var inFlight = InFlightBatches()
        let first = inFlight.add(end: Self.position(100))
        let second = inFlight.add(end: Self.position(200))
        second.acknowledgedThrough = second.end
        first.acknowledgedThrough = Self.position(50)
        #expect(inFlight.settle() == Self.position(50))
        #expect(inFlight.count == 2)
        first.acknowledgedThrough = first.end
        #expect(inFlight.settle() == Self.position(200))
    }

    @Test func theNextBatchStartsAfterTheLastInFlightOrAtTheCursor() {
        var inFlight = InFlightBatches()
        #expect(inFlight.nextRead(cursor: Self.position(8)) == Self.position(8))
        inFlight.add(end: Self.position(100))
        inFlight.add(end: Self.position(40, segment: 2))
        #expect(inFlight.nextRead(cursor: Self.position(8)) == Self.position(40, segment: 2))
        // The size cap moved the cursor past every batch in flight.
        #expect(inFlight.nextRead(cursor: Self.position(8, segment: 3)) == Self.position(8, segment: 3))
    }

    /// Any order of answers over eight batches: the cursor only ever moves forward, to the end of
    /// the longest run of acknowledged batches from the front.
    @Test func everyOrderOfAnswersMovesTheCursorOnlyPastAcknowledgedPrefixes() {
        var random = Xoshiro256(seed: (7, 8, 9, 10))
        for _ in 0..<500 {
            var inFlight = InFlightBatches()
            let batches = (1...8).map { inFlight.add(end: Self.position($0 * 100)) }
            var order = Array(0..<8)
            for i in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(i, Int(random.next() % UInt64(i + 1)))
            }
            var acknowledged = Set<Int>()
            var cursor = Self.position(0)
            for index in order {
                batches[index].acknowledgedThrough = batches[index].end
                acknowledged.insert(index)
                let prefix = (0..<8).prefix { acknowledged.contains($0) }.count
                if let through = inFlight.settle() {
                    #expect(through > cursor)
                    cursor = through
                }
                #expect(cursor == (prefix == 0 ? Self.position(0) : batches[prefix - 1].end))
            }
            #expect(inFlight.count == 0)
        }
    }
}
