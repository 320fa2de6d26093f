/// What a presented API key grants: the app it belongs to, its kind, and whether it was revoked.
public struct KeyGrant: Sendable, Hashable {
    public var appID: Int32
    public var appName: String
    public var kind: KeyKind
    public var revoked: Bool
    /// The app's secret for re-hashing user and session ids.
    public var hashSecret: [UInt8]
    /// The browser origins the app allows (sql/0016, normalised as ``AllowedOrigin`` does): read
    /// with the key, so a request with an `Origin` costs no query of its own.
    public var allowedOrigins: [String]

    public init(appID: Int32, appName: String, kind: KeyKind, revoked: Bool, hashSecret: [UInt8],
                allowedOrigins: [String] = []) {
        self.appID = appID
        self.appName = appName
        self.kind = kind
        self.revoked = revoked
        self.hashSecret = hashSecret
        self.allowedOrigins = allowedOrigins
    }
}
