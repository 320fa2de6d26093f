/// HMAC-SHA256 (RFC 2104 / FIPS 198-1).
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key` (a key longer than a block is hashed first).
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var k = key.count > SHA256.blockCount ? SHA256.hash(key) : key
        k.append(contentsOf: [UInt8](repeating: 0, count: SHA256.blockCount - k.count))
        var inner = SHA256()
        inner.update(k.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(k.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Checks a code in constant time.
    public static func isValid(_ code: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.equals(authenticationCode(for: message, key: key), code)
    }
}
