public import CivilTime

/// An API key as listed: never the key itself, only its prefix.
public struct KeyRecord: Sendable, Hashable {
    public var appID: Int32
    public var appName: String
    public var prefix: String
    public var kind: KeyKind
    public var createdAt: UTCTimestamp
    public var revokedAt: UTCTimestamp?

    public init(appID: Int32, appName: String, prefix: String, kind: KeyKind, createdAt: UTCTimestamp, revokedAt: UTCTimestamp?) {
        self.appID = appID
        self.appName = appName
        self.prefix = prefix
        self.kind = kind
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}
