/// MurmurHash3, x64 128-bit variant (Austin Appleby's public-domain algorithm), for the one input
/// the rollups hash: a 64-bit integer as its 8 little-endian bytes. This is what postgresql-hll's
/// `hll_hash_bigint(value, seed)` computes (the bytes of the `int8` as it lies in memory on the
/// little-endian machines PostgreSQL runs on) and returns as the first 64-bit half of the hash.
///
/// For an 8-byte key the algorithm has no full 16-byte block: the key is the tail's first word
/// (`k1`), mixed into `h1`; then the length is folded into both halves, which are added to each
/// other, run through the finalizer `fmix64` and added again.
public enum MurmurHash3 {
    static let c1: UInt64 = 0x87C3_7B91_1142_53D5
    static let c2: UInt64 = 0x4CF5_AD43_2745_937F

    /// The first half of MurmurHash3_x64_128 of `value`'s 8 little-endian bytes, as a signed
    /// integer (`hll_hashval`); `seed` as postgresql-hll takes it (its default is 0).
    public static func hash(_ value: Int64, seed: UInt32 = 0) -> Int64 {
        var h1 = UInt64(seed)
        var h2 = UInt64(seed)
        var k1 = UInt64(bitPattern: value)
        k1 &*= c1
        k1 = (k1 << 31) | (k1 >> 33)
        k1 &*= c2
        h1 ^= k1
        h1 ^= 8
        h2 ^= 8
        h1 &+= h2
        h2 &+= h1
        h1 = fmix64(h1)
        h2 = fmix64(h2)
        h1 &+= h2
        return Int64(bitPattern: h1)
    }

    static func fmix64(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }
}
