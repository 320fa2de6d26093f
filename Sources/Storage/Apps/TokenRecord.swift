public import CivilTime

/// An admin token as listed: its name, scope and prefix, never the token itself.
public struct TokenRecord: Sendable, Hashable {
    public var tokenID: Int32
    public var name: String
    /// The app it may review, nil for every app.
    public var appID: Int32?
    public var appName: String?
    public var prefix: String
    public var createdAt: UTCTimestamp
    public var revokedAt: UTCTimestamp?

    public init(tokenID: Int32, name: String, appID: Int32?, appName: String?, prefix: String, createdAt: UTCTimestamp,
                revokedAt: UTCTimestamp?)
    {
        self.tokenID = tokenID
        self.name = name
        self.appID = appID
        self.appName = appName
        self.prefix = prefix
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// A new admin token: its record and the token itself, shown once.
public struct CreatedToken: Sendable {
    public var record: TokenRecord
    public var token: String
}

/// What a presented admin token grants.
public struct TokenGrant: Sendable, Hashable {
    public var name: String
    /// The app it may review, nil for every app.
    public var appID: Int32?
    public var appName: String?
    public var revoked: Bool

    public init(name: String, appID: Int32?, appName: String?, revoked: Bool) {
        self.name = name
        self.appID = appID
        self.appName = appName
        self.revoked = revoked
    }

    /// Whether the token may see and decide the proposals of `appID`.
    public func covers(appID other: Int32) -> Bool { appID == nil || appID == other }

    /// What a decision made with this token records as its author.
    public var author: String { "token:\(name)" }
}
