/// Turns an identifier sent by a client (`user`, `session`) into a stable 64-bit pseudonym under a
/// per-app secret, so the stored value cannot be joined with other data sets and the raw identifier
/// is never kept. The same secret and input always give the same pseudonym.
public struct Pseudonymizer: Sendable, Hashable {
    public let hasher: SipHash24

    /// `secret` must be 16 bytes (a SipHash key); nil otherwise.
    public init?(secret: [UInt8]) {
        guard let hasher = SipHash24(key: secret) else { return nil }
        self.hasher = hasher
    }

    public init(hasher: SipHash24) { self.hasher = hasher }

    /// A fresh random 16-byte secret.
    public static func makeSecret() -> [UInt8] { SecureRandom.bytes(count: 16) }

    public func pseudonym(_ value: String) -> Int64 { Int64(bitPattern: hasher.hash(value)) }
}
