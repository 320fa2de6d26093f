import Foundation

/// A counter the sending threads draw batch indexes from: each index is handed out once.
final class SimulationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func add(_ amount: Int) {
        lock.lock()
        value += amount
        lock.unlock()
    }

    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let taken = value
        value += 1
        return taken
    }
}
