import CSodium

/// SipHash-2-4 (Aumasson & Bernstein): a fast keyed 64-bit hash with a 128-bit key, from libsodium
/// (`crypto_shorthash`, which is SipHash-2-4). menurank uses it to pseudonymise `user` and
/// `session` values with a per-app secret before they are stored; the 8-byte output is read
/// little-endian, as in the reference implementation, so stored pseudonyms keep their values.
public struct SipHash24: Sendable, Hashable {
    public let k0: UInt64
    public let k1: UInt64
    /// The 16-byte key: k0 then k1, little-endian.
    private let key: [UInt8]

    public init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
        key = (0..<8).map { UInt8(truncatingIfNeeded: k0 >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: k1 >> (8 * $0)) }
    }

    /// A key from 16 bytes (little-endian halves, as in the reference implementation); nil for any other length.
    public init?(key: [UInt8]) {
        guard key.count == Int(crypto_shorthash_BYTES) * 2 else { return nil }
        self.init(k0: SipHash24.loadLE(key, 0), k1: SipHash24.loadLE(key, 8))
    }

    public func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    public func hash(_ string: String) -> UInt64 {
        var s = string
        return s.withUTF8 { hash($0) }
    }

    public func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        Sodium.ready
        var out: UInt64 = 0
        withUnsafeMutableBytes(of: &out) { output in
            key.withUnsafeBufferPointer { k in
                _ = crypto_shorthash_siphash24(output.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.baseAddress,
                                               UInt64(bytes.count), k.baseAddress!)
            }
        }
        return UInt64(littleEndian: out)
    }

    public static func == (a: SipHash24, b: SipHash24) -> Bool { a.k0 == b.k0 && a.k1 == b.k1 }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(k0)
        hasher.combine(k1)
    }

    private static func loadLE(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        return value
    }
}
