/// The batch-wide `context` of a request: applies to every event that does not set the field itself.
public struct EventContext: Sendable, Hashable {
    public var appVersion: String?
    public var platform: String?
    public var locale: String?
    public var isTest: Bool?

    public init(appVersion: String? = nil, platform: String? = nil, locale: String? = nil, isTest: Bool? = nil) {
        self.appVersion = appVersion
        self.platform = platform
        self.locale = locale
        self.isTest = isTest
    }
}
