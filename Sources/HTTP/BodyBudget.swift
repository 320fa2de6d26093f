import Synchronization

/// The bytes of request bodies the server may hold at once, over all connections.
///
/// A request with a body reserves its declared `Content-Length` (a chunked one, each chunk as it
/// arrives) before any of it is buffered, and gives the reservation back when the request
/// completes. A reservation that would pass the cap is refused: the server answers 503 with
/// `Retry-After` instead of buffering, so many slow uploads cannot grow memory without bound.
final class BodyBudget: Sendable {
    let capacity: Int
    private let reserved = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Bytes reserved now.
    var inUse: Int { reserved.load(ordering: .relaxed) }

    /// Reserves `bytes` when they fit under the cap; false (nothing reserved) otherwise.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        guard bytes <= capacity else { return false }
        var current = reserved.load(ordering: .relaxed)
        while true {
            guard current <= capacity - bytes else { return false }
            let (exchanged, original) = reserved.compareExchange(expected: current, desired: current + bytes,
                                                                 ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        reserved.subtract(bytes, ordering: .relaxed)
    }
}
