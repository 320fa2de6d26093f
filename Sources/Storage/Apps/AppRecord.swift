public import CivilTime

/// An app as stored: its id, name and the secret its user and session ids are hashed with.
public struct AppRecord: Sendable, Hashable {
    public var appID: Int32
    public var name: String
    /// 16-byte SipHash-2-4 key; never printed.
    public var hashSecret: [UInt8]
    public var createdAt: UTCTimestamp

    public init(appID: Int32, name: String, hashSecret: [UInt8], createdAt: UTCTimestamp) {
        self.appID = appID
        self.name = name
        self.hashSecret = hashSecret
        self.createdAt = createdAt
    }
}
