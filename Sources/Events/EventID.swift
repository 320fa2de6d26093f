public import Foundation

/// A client-made event id: a UUID kept as two 64-bit halves (big-endian order, so `high` holds the
/// first 8 bytes of the textual form). Parsed by hand from the 36-character form, either case.
public struct EventID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex digits in either case); nil for anything else.
    public init?(_ text: String) {
        var text = text
        guard let id = text.withUTF8({ EventID(utf8: $0) }) else { return nil }
        self = id
    }

    /// Parses the 36-character form from UTF-8 bytes.
    public init?(utf8 b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 36, b[8] == 0x2D, b[13] == 0x2D, b[18] == 0x2D, b[23] == 0x2D else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var bad: UInt8 = 0
        // Digits 0..<16 make `high`, 16..<32 make `low`; dashes are skipped by the offsets table.
        for i in 0..<16 {
            let v = EventID.hexNibble(b[EventID.digitOffsets[i]])
            bad |= v
            high = high << 4 | UInt64(v & 0x0F)
        }
        for i in 16..<32 {
            let v = EventID.hexNibble(b[EventID.digitOffsets[i]])
            bad |= v
            low = low << 4 | UInt64(v & 0x0F)
        }
        guard bad & 0xF0 == 0 else { return nil }
        self.init(high: high, low: low)
    }

    public init(uuid: UUID) {
        let u = uuid.uuid
        let bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        self.init(bytes: bytes)!
    }

    /// From 16 bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(bytes[i]) }
        self.init(high: high, low: low)
    }

    /// The 16 bytes in network order (what PostgreSQL's `uuid` type stores).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        return out
    }

    public var uuid: UUID {
        let b = bytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The canonical lowercase 36-character form.
    public var description: String {
        var out = [UInt8](repeating: 0x2D, count: 36)
        for i in 0..<16 {
            out[EventID.digitOffsets[i]] = EventID.hexDigits[Int((high >> UInt64(60 - 4 * i)) & 0x0F)]
            out[EventID.digitOffsets[16 + i]] = EventID.hexDigits[Int((low >> UInt64(60 - 4 * i)) & 0x0F)]
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func < (a: EventID, b: EventID) -> Bool { (a.high, a.low) < (b.high, b.low) }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let digitOffsets: [Int] = Array(0..<8) + Array(9..<13) + Array(14..<18) + Array(19..<23) + Array(24..<36)

    /// The value of a hex digit, or 0xFF for any other byte.
    @inline(__always)
    private static func hexNibble(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: return c &- 0x30
        case 0x41...0x46: return c &- 0x37
        case 0x61...0x66: return c &- 0x57
        default: return 0xFF
        }
    }
}
