import Hashing

/// The first 16 bytes of a key's or token's SHA-256: plenty to tell made-up secrets apart, and
/// what the caches remember instead of the secret itself.
struct SecretDigest: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ text: String) {
        let bytes = SHA256.hash(text)
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
