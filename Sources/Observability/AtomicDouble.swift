import Synchronization

/// A `Double` updated atomically, stored as its bit pattern.
final class AtomicDouble: Sendable {
    private let bits: Atomic<UInt64>

    init(_ value: Double = 0) { bits = Atomic(value.bitPattern) }

    var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }

    func store(_ value: Double) { bits.store(value.bitPattern, ordering: .relaxed) }

    func add(_ amount: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + amount).bitPattern
            let (exchanged, original) = bits.weakCompareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
