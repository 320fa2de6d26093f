import Locking

/// The tallies of finished threads, merged under a lock.
final class SimulationMergedTally: Sendable {
    private let tally = Locked(SimulationTally())

    func add(_ other: SimulationTally) {
        tally.withLock { $0.merge(other) }
    }

    var value: SimulationTally { tally.withLock { $0 } }
}
