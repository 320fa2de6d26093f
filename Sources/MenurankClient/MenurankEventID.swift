/// An event's id: a UUID version 7 (RFC 9562) made when the event is recorded and kept through
/// every retry, restart and split, so the server counts the event once however often it is sent.
///
/// An id made by the client keeps its 128 bits and spells them out only when asked, so `record`
/// allocates no text for the id it returns.
public struct MenurankEventID: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable {
        case bits(high: UInt64, low: UInt64)
        case text(String)
    }

    private let storage: Storage

    public init(uuidString: String) {
        storage = .text(uuidString)
    }

    init(bits: (high: UInt64, low: UInt64)) {
        storage = .bits(high: bits.high, low: bits.low)
    }

    /// The canonical lowercase form, `0193a4c2-6f1e-7c3a-9d2b-4e5f60718293` (or the text the id was
    /// made from).
    public var uuidString: String {
        switch storage {
        case .text(let text):
            return text
        case .bits(let high, let low):
            var out: [UInt8] = []
            out.reserveCapacity(36)
            UUIDv7Generator.append((high, low), to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    public var description: String { uuidString }

    /// The UTF-8 length of `uuidString`, without making it.
    var textLength: Int {
        switch storage {
        case .text(let text): return text.utf8.count
        case .bits: return 36
        }
    }

    public static func == (a: MenurankEventID, b: MenurankEventID) -> Bool {
        if case .bits(let ah, let al) = a.storage, case .bits(let bh, let bl) = b.storage { return ah == bh && al == bl }
        return a.uuidString == b.uuidString
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuidString)
    }
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
        ByteWriter.append(to: &out, capacity: 36) { write(id, to: &$0) }
    }

    /// Writes the 36-character text form (once per recorded event, into `record`'s buffer).
    static func write(_ id: (high: UInt64, low: UInt64), to out: inout ByteWriter) {
        writeHex(id.high, from: 0, to: &out)
        writeHex(id.low, from: 16, to: &out)
    }

    /// The 16 hex digits of `word`, with the dashes that fall at text positions 8, 12, 16 and 20
    /// (counting digits from `from`).
    @inline(__always)
    private static func writeHex(_ word: UInt64, from: Int, to out: inout ByteWriter) {
        for nibble in 0..<16 {
            let position = from + nibble
            if position == 8 || position == 12 || position == 16 || position == 20 { out.byte(UInt8(ascii: "-")) }
            let digit = UInt8(truncatingIfNeeded: (word >> UInt64(60 - 4 * nibble)) & 0xF)
            out.byte(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
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
