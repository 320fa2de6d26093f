import Foundation

/// The wait of one request for the commit of its events: the writer thread fulfils it once, the
/// request thread blocks in `wait()` until then.
final class CommitTicket: @unchecked Sendable {
    let rows: [EventRow]
    private let condition = NSCondition()
    private var outcome: Swift.Result<WriteCounts, StorageError>?

    init(rows: [EventRow]) {
        self.rows = rows
    }

    func fulfil(_ result: Swift.Result<WriteCounts, StorageError>) {
        condition.lock()
        if outcome == nil { outcome = result }
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Swift.Result<WriteCounts, StorageError> {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome!
    }
}
