public import Foundation

extension EventRow {
    /// The event id as a Foundation UUID (built from the two halves without an intermediate array).
    public var eventUUID: UUID { Self.uuid(high: eventIDHigh, low: eventIDLow) }

    /// The UUID whose first 8 bytes are `high` and last 8 bytes `low` (big-endian).
    public static func uuid(high h: UInt64, low l: UInt64) -> UUID {
        func b(_ v: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: v >> shift) }
        return UUID(uuid: (b(h, 56), b(h, 48), b(h, 40), b(h, 32), b(h, 24), b(h, 16), b(h, 8), b(h, 0),
                           b(l, 56), b(l, 48), b(l, 40), b(l, 32), b(l, 24), b(l, 16), b(l, 8), b(l, 0)))
    }
}
