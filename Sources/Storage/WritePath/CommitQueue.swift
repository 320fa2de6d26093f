import Foundation

/// The queue between request threads and the writer threads of `EventWriter`. A writer takes
/// every ticket waiting, up to a row budget, so that all of them share one transaction.
final class CommitQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var tickets: [CommitTicket] = []
    private var queuedRows = 0
    private var closed = false

    /// Queues a ticket; false once the queue is closed (shutting down).
    func enqueue(_ ticket: CommitTicket) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        tickets.append(ticket)
        queuedRows += ticket.rows.count
        condition.signal()
        return true
    }

    /// Blocks until there is work, then takes tickets in arrival order until `maxRows` would be
    /// exceeded (always at least one). Returns nil when the queue is closed and empty.
    func take(maxRows: Int) -> [CommitTicket]? {
        condition.lock()
        defer { condition.unlock() }
        while tickets.isEmpty {
            if closed { return nil }
            condition.wait()
        }
        var taken = 0
        var rows = 0
        for ticket in tickets {
            if taken > 0 && rows + ticket.rows.count > maxRows { break }
            taken += 1
            rows += ticket.rows.count
        }
        let batch = Array(tickets.prefix(taken))
        tickets.removeFirst(taken)
        queuedRows -= rows
        if !tickets.isEmpty { condition.signal() }
        return batch
    }

    /// Refuses new tickets and wakes the writers; what is queued is still taken.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Rows queued and not yet taken.
    var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return queuedRows
    }
}
