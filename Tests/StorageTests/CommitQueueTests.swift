@testable import Storage
import Testing

@Suite struct CommitQueueTests {
    @Test func takesWholeWritesUpToTheRowBudget() {
        let queue = CommitQueue()
        let tickets = [3, 4, 5, 20].map { CommitTicket(rows: Rows.make(appID: 1, count: $0)) }
        for ticket in tickets { #expect(queue.enqueue(ticket)) }
        #expect(queue.depth == 32)
        #expect(queue.take(maxRows: 8)?.map(\.rows.count) == [3, 4])
        // A write larger than the budget still goes, alone.
        #expect(queue.take(maxRows: 4)?.map(\.rows.count) == [5])
        #expect(queue.take(maxRows: 4)?.map(\.rows.count) == [20])
        queue.close()
        #expect(queue.take(maxRows: 4) == nil)
        #expect(!queue.enqueue(CommitTicket(rows: [])))
    }

    @Test func closedQueueStillHandsOutWhatWasQueued() {
        let queue = CommitQueue()
        #expect(queue.enqueue(CommitTicket(rows: Rows.make(appID: 1, count: 2))))
        queue.close()
        #expect(queue.take(maxRows: 10)?.count == 1)
        #expect(queue.take(maxRows: 10) == nil)
    }
}
