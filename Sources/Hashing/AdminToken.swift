/// An admin token as handed to a reviewer once: `mrk_a_<32 base62>`. It opens the admin API of
/// `menurank serve` (proposals) and nothing else: its shape differs from the apps' keys
/// (`mrk_w_`, `mrk_r_`), so `APIKey(parsing:)` refuses it and it can never ingest or read menus.
///
/// Only `lookupPrefix` (`mrk_a_` plus the first 8 random characters) and the SHA-256 of the whole
/// token are stored.
public struct AdminToken: Sendable, Hashable, CustomStringConvertible {
    public static let tag = "mrk_a_"

    /// The whole token. Never log it; `description` shows only the prefix.
    public let text: String

    /// A new random token.
    public static func generate() -> AdminToken {
        AdminToken(text: tag + SecureRandom.base62(count: APIKey.secretCount))
    }

    private init(text: String) {
        self.text = text
    }

    /// Parses a token presented by a client; nil unless it has the exact shape of an admin token.
    public init?(parsing text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == AdminToken.tag.utf8.count + APIKey.secretCount,
              text.hasPrefix(AdminToken.tag),
              utf8[AdminToken.tag.utf8.count...].allSatisfy({ SecureRandom.base62Alphabet.contains($0) })
        else { return nil }
        self.init(text: text)
    }

    /// What is stored in clear to name the token: `mrk_a_` plus the first 8 random characters.
    public var lookupPrefix: String { String(text.utf8.prefix(AdminToken.tag.utf8.count + APIKey.lookupSecretCount))! }

    public var description: String { "\(lookupPrefix)…" }
}
