import Synchronization

/// A count that only goes up (requests served, events accepted). Adding is one relaxed atomic add.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Adds `amount` (not negative).
    public func increment(by amount: Int = 1) {
        precondition(amount >= 0, "a counter only goes up")
        count.wrappingAdd(amount, ordering: .relaxed)
    }

    public var value: Int { count.load(ordering: .relaxed) }
}
