import Locking

/// What each client address holds at once, against a limit per address: its open connections,
/// or, for a client behind a trusted proxy (whose connections are the proxy's), its requests in
/// flight (see ``TrustedProxies``). Addresses holding nothing are forgotten, so memory follows
/// the addresses active now.
final class AddressCounts: Sendable {
    let limit: Int
    private let counts = Locked<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more for `address`; false (nothing counted) when it holds `limit` already.
    func acquire(_ address: String) -> Bool {
        counts.withLock { counts in
            let held = counts[address, default: 0]
            guard held < limit else { return false }
            counts[address] = held + 1
            return true
        }
    }

    func release(_ address: String) {
        counts.withLock { counts in
            guard let held = counts[address] else { return }
            counts[address] = held > 1 ? held - 1 : nil
        }
    }

    /// What `address` holds now.
    func held(by address: String) -> Int { counts.withLock { $0[address, default: 0] } }
}
