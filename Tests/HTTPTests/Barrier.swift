import Foundation

/// Lets a fixed number of threads wait for each other.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) {
        self.parties = parties
    }

    /// Blocks until `parties` threads have arrived, or `timeout` passes; false on timeout.
    @discardableResult
    func arriveAndWait(timeout: TimeInterval = 30) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= parties {
            condition.broadcast()
            return true
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return arrived >= parties }
        }
        return true
    }
}
