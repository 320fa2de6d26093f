/// An API key as handed to a client once: `mrk_w_<32 base62>` (write: ingest events) or
/// `mrk_r_<32 base62>` (read: fetch layouts).
///
/// Only `lookupPrefix` (the kind tag plus the first 8 random characters, e.g. `mrk_w_Ab3dE9xZ`) and
/// `hash` (SHA-256 of the whole key, hex) are stored. A request's key is found by its prefix and
/// then checked with `matches(storedHash:)`, in constant time.
public struct APIKey: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case write = "w"
        case read = "r"
    }

    public static let secretCount = 32
    public static let lookupSecretCount = 8

    public let kind: Kind
    /// The whole key. Never log it; `description` shows only the prefix.
    public let text: String

    /// A new random key.
    public static func generate(kind: Kind) -> APIKey {
        APIKey(kind: kind, text: "mrk_\(kind.rawValue)_" + SecureRandom.base62(count: secretCount))
    }

    private init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// Parses a key presented by a client; nil unless it has the exact shape of a menurank key.
    public init?(parsing text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 6 + APIKey.secretCount,
              utf8[0] == UInt8(ascii: "m"), utf8[1] == UInt8(ascii: "r"), utf8[2] == UInt8(ascii: "k"),
              utf8[3] == UInt8(ascii: "_"), utf8[5] == UInt8(ascii: "_"),
              let kind = Kind(rawValue: String(decoding: utf8[4...4], as: UTF8.self)),
              utf8[6...].allSatisfy({ SecureRandom.base62Alphabet.contains($0) })
        else { return nil }
        self.init(kind: kind, text: text)
    }

    /// What is stored in clear to find the key: `mrk_w_` plus the first 8 random characters.
    public var lookupPrefix: String { String(text.utf8.prefix(6 + APIKey.lookupSecretCount))! }

    /// SHA-256 of the whole key, lowercase hex: what is stored instead of the key.
    public var hash: String { Hex.encode(SHA256.hash(text)) }

    /// Checks the key against a stored `hash`, in constant time.
    public func matches(storedHash: String) -> Bool {
        ConstantTime.equals(Array(hash.utf8), Array(storedHash.lowercased().utf8))
    }

    public var description: String { "\(lookupPrefix)…" }
}
