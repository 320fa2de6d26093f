/// SipHash-2-4 (Aumasson & Bernstein): a fast keyed 64-bit hash with a 128-bit key. menurank uses it
/// to pseudonymise `user` and `session` values with a per-app secret before they are stored.
public struct SipHash24: Sendable, Hashable {
    public let k0: UInt64
    public let k1: UInt64

    public init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// A key from 16 bytes (little-endian halves, as in the reference implementation); nil for any other length.
    public init?(key: [UInt8]) {
        guard key.count == 16 else { return nil }
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
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1

        @inline(__always)
        func round() {
            v0 = v0 &+ v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
            v2 = v2 &+ v3; v3 = rotl(v3, 16); v3 ^= v2
            v0 = v0 &+ v3; v3 = rotl(v3, 21); v3 ^= v0
            v2 = v2 &+ v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
        }

        let count = bytes.count
        let fullEnd = count & ~7
        var i = 0
        while i < fullEnd {
            var m: UInt64 = 0
            for k in 0..<8 { m |= UInt64(bytes[i + k]) << UInt64(8 * k) }
            v3 ^= m
            round(); round()
            v0 ^= m
            i += 8
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        for k in 0..<(count - fullEnd) { last |= UInt64(bytes[fullEnd + k]) << UInt64(8 * k) }
        v3 ^= last
        round(); round()
        v0 ^= last
        v2 ^= 0xff
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    @inline(__always)
    private static func loadLE(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[at + k]) << UInt64(8 * k) }
        return v
    }
}

@inline(__always)
private func rotl(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }
