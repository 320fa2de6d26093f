import Foundation

/// A fixed number of result slots filled concurrently, each by exactly one worker.
final class SimulationSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[UInt8]]

    init(count: Int) {
        slots = Array(repeating: [], count: count)
    }

    func store(_ value: [UInt8], at index: Int) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
