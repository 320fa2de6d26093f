import CSodium

/// HMAC-SHA256 (RFC 2104 / FIPS 198-1), from libsodium (`crypto_auth_hmacsha256`, whose streaming
/// form takes a key of any length, hashing one longer than a block first, as the RFC says).
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        Sodium.ready
        var state = crypto_auth_hmacsha256_state()
        var code = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        var padded = key
        if padded.isEmpty { padded = [0] }  // a non-null pointer for an empty key (length 0)
        padded.withUnsafeBufferPointer { k in _ = crypto_auth_hmacsha256_init(&state, k.baseAddress!, key.count) }
        message.withUnsafeBufferPointer { m in _ = crypto_auth_hmacsha256_update(&state, m.baseAddress, UInt64(m.count)) }
        _ = crypto_auth_hmacsha256_final(&state, &code)
        return code
    }

    /// Checks a code in constant time.
    public static func isValid(_ code: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.equals(authenticationCode(for: message, key: key), code)
    }
}
