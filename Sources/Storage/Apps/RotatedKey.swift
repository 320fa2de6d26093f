/// The outcome of a key rotation: the new key (in clear, print it once) and the prefixes of the keys
/// of the same kind it replaced, which are revoked.
public struct RotatedKey: Sendable {
    public var appName: String
    public var kind: KeyKind
    public var key: String
    public var revokedPrefixes: [String]

    public init(appName: String, kind: KeyKind, key: String, revokedPrefixes: [String]) {
        self.appName = appName
        self.kind = kind
        self.key = key
        self.revokedPrefixes = revokedPrefixes
    }
}
