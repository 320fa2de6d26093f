import Locking

/// A counter the sending threads draw batch indexes from: each index is handed out once.
final class SimulationCounter: Sendable {
    private let value = Locked(0)

    func add(_ amount: Int) {
        value.withLock { $0 += amount }
    }

    var total: Int { value.withLock { $0 } }

    func take() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
