import CSodium

/// SHA-256 (FIPS 180-4), streaming, from libsodium (`crypto_hash_sha256`). Used to store API keys
/// as hashes, for migration checksums and ETags.
///
///     var h = SHA256(); h.update(bytes); let digest = h.finalize()   // 32 bytes
///     SHA256.hash(Array("abc".utf8))
public struct SHA256: Sendable {
    public static let digestCount = 32
    public static let blockCount = 64

    private var state = crypto_hash_sha256_state()

    public init() {
        Sodium.ready
        crypto_hash_sha256_init(&state)
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        Sodium.ready
        var digest = [UInt8](repeating: 0, count: digestCount)
        bytes.withUnsafeBufferPointer { input in
            _ = crypto_hash_sha256(&digest, input.baseAddress, UInt64(input.count))
        }
        return digest
    }

    /// The digest of the UTF-8 bytes of `string`.
    public static func hash(_ string: String) -> [UInt8] { hash(Array(string.utf8)) }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        _ = crypto_hash_sha256_update(&state, bytes.baseAddress, UInt64(bytes.count))
    }

    /// The 32-byte digest of everything passed to `update`.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: SHA256.digestCount)
        _ = crypto_hash_sha256_final(&state, &digest)
        return digest
    }
}
