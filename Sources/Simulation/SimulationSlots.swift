import Locking

/// A fixed number of result slots filled concurrently, each by exactly one worker.
final class SimulationSlots: Sendable {
    private let slots: Locked<[[UInt8]]>

    init(count: Int) {
        slots = Locked(Array(repeating: [], count: count))
    }

    func store(_ value: [UInt8], at index: Int) {
        slots.withLock { $0[index] = value }
    }

    var values: [[UInt8]] { slots.withLock { $0 } }
}
