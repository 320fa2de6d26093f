/// Random bytes and tokens for secrets. Uses `SystemRandomNumberGenerator`, which the Swift standard
/// library documents as cryptographically secure (getrandom(2) / /dev/urandom on Linux,
/// arc4random on Apple platforms).
public enum SecureRandom {
    /// The 62 characters of base62 tokens: digits, uppercase, lowercase.
    public static let base62Alphabet: [UInt8] =
        Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    public static func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            let word = generator.next()
            for k in 0..<8 where out.count < count { out.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * k))) }
        }
        return out
    }

    /// `count` uniformly random base62 characters (rejection sampling, no modulo bias): about 5.95
    /// bits of entropy each, so 32 characters carry more than 190 bits.
    public static func base62(count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            var word = generator.next() as UInt64
            for _ in 0..<8 where out.count < count {
                let byte = UInt8(truncatingIfNeeded: word)
                word >>= 8
                // 248 = 4 * 62: values at or above it would favour the first characters.
                if byte < 248 { out.append(base62Alphabet[Int(byte % 62)]) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
