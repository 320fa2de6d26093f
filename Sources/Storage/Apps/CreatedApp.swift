/// A new app with its first keys. The keys exist in clear only here: print them once.
public struct CreatedApp: Sendable {
    public var app: AppRecord
    public var writeKey: String
    public var readKey: String

    public init(app: AppRecord, writeKey: String, readKey: String) {
        self.app = app
        self.writeKey = writeKey
        self.readKey = readKey
    }
}
