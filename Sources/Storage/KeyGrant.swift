/// What a presented API key grants: the app it belongs to, its kind, and whether it was revoked.
public struct KeyGrant: Sendable, Hashable {
    public var appID: Int32
    public var appName: String
    public var kind: KeyKind
    public var revoked: Bool
    /// The app's secret for re-hashing user and session ids.
    public var hashSecret: [UInt8]

    public init(appID: Int32, appName: String, kind: KeyKind, revoked: Bool, hashSecret: [UInt8]) {
        self.appID = appID
        self.appName = appName
        self.kind = kind
        self.revoked = revoked
        self.hashSecret = hashSecret
    }
}
