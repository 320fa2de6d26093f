/// A UUID version 7 (RFC 9562): 48 bits of Unix time in milliseconds, the version, 12 random bits,
/// the variant, 62 random bits. Ids made this way sort in time order.
public struct SimulationUUID: Sendable, Hashable, Comparable {
    public var high: UInt64
    public var low: UInt64

    init(millis: Int64, random: inout SimulationRandom) {
        let timestamp = UInt64(truncatingIfNeeded: millis) & 0xFFFF_FFFF_FFFF
        high = (timestamp << 16) | 0x7000 | (random.next() & 0x0FFF)
        low = 0x8000_0000_0000_0000 | (random.next() & 0x3FFF_FFFF_FFFF_FFFF)
    }

    public static func < (a: SimulationUUID, b: SimulationUUID) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The canonical 36-character form, `0193a4c2-6f1e-7c3a-9d2b-4e5f60718293`.
    public func append(to out: inout [UInt8]) {
        for (word, from) in [(high, 0), (low, 16)] {
            for nibble in 0..<16 {
                let position = from + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 {
                    out.append(UInt8(ascii: "-"))
                }
                out.append(SimulationUUID.hexDigits[Int((word >> UInt64(60 - 4 * nibble)) & 0xF)])
            }
        }
    }

    public var text: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
