/// An event's id: a UUID version 7 (RFC 9562) made when the event is recorded and kept through
/// every retry, restart and split, so the server counts the event once however often it is sent.
public struct MenurankEventID: Sendable, Hashable, CustomStringConvertible {
    /// The canonical lowercase form, `0193a4c2-6f1e-7c3a-9d2b-4e5f60718293`.
    public let uuidString: String

    public init(uuidString: String) {
        self.uuidString = uuidString
    }

    public var description: String { uuidString }
}

/// Makes UUIDv7 ids that increase strictly within a process: 48 bits of Unix milliseconds, then a
/// 12-bit counter (RFC 9562 method 1) that orders ids made in the same millisecond, then 62 random
/// bits. When the wall clock steps back, ids keep the last millisecond (and count on), so ids never
/// repeat or go backwards; the event's `time` still says what the clock said.
struct UUIDv7Generator {
    private var lastMillis: Int64 = 0
    private var counter: UInt64 = 0
    private var random: Xoshiro256

    init() {
        var system = SystemRandomNumberGenerator()
        random = Xoshiro256(seed: (system.next(), system.next(), system.next(), system.next()))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func next(millis: Int64) -> (high: UInt64, low: UInt64) {
        if millis > lastMillis {
            lastMillis = millis
            counter = random.next() & 0x1FF  // leaves room to count up within the millisecond
        } else {
            counter += 1
            if counter > 0xFFF {
                lastMillis += 1
                counter = 0
            }
        }
        let high = (UInt64(truncatingIfNeeded: lastMillis) & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | counter
        let low = 0x8000_0000_0000_0000 | (random.next() & 0x3FFF_FFFF_FFFF_FFFF)
        return (high, low)
    }

    /// Appends the 36-character text form.
    static func append(_ id: (high: UInt64, low: UInt64), to out: inout [UInt8]) {
        for (word, from) in [(id.high, 0), (id.low, 16)] {
            for nibble in 0..<16 {
                let position = from + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 { out.append(UInt8(ascii: "-")) }
                out.append(hex[Int((word >> UInt64(60 - 4 * nibble)) & 0xF)])
            }
        }
    }
}

/// xoshiro256** (Blackman and Vigna): fast random bits for ids, seeded once from the system.
struct Xoshiro256 {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    init(seed: (UInt64, UInt64, UInt64, UInt64)) {
        s = seed
        if s == (0, 0, 0, 0) { s.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    mutating func next() -> UInt64 {
        let result = rotl(s.1 &* 5, 7) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = rotl(s.3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
