import Foundation

/// Counts requests the server has started (first access-handler call) and not yet completed
/// (MHD's request-completed notification), so a graceful stop can wait for them.
final class InFlightRequests: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func begin() {
        condition.lock()
        count += 1
        condition.unlock()
    }

    func end() {
        condition.lock()
        count -= 1
        if count == 0 { condition.broadcast() }
        condition.unlock()
    }

    var current: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Waits until no request is in flight or `deadline` passes; true when none is left.
    func waitUntilIdle(deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count > 0 {
            if !condition.wait(until: deadline) { return count == 0 }
        }
        return true
    }
}
