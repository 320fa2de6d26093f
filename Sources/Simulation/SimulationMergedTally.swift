import Foundation

/// The tallies of finished threads, merged under a lock.
final class SimulationMergedTally: @unchecked Sendable {
    private let lock = NSLock()
    private var tally = SimulationTally()

    func add(_ other: SimulationTally) {
        lock.lock()
        tally.merge(other)
        lock.unlock()
    }

    var value: SimulationTally {
        lock.lock()
        defer { lock.unlock() }
        return tally
    }
}
