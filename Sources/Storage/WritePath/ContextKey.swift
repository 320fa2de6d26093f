/// The context an event was sent in, as stored in the `contexts` dictionary (absent text is '').
public struct ContextKey: Sendable, Hashable {
    public var appVersion: String
    public var platform: String
    public var locale: String
    public var isTest: Bool
    public var menuVersion: String
    public var trigger: String

    public init(appVersion: String = "", platform: String = "", locale: String = "", isTest: Bool = false,
                menuVersion: String = "", trigger: String = "")
    {
        self.appVersion = appVersion
        self.platform = platform
        self.locale = locale
        self.isTest = isTest
        self.menuVersion = menuVersion
        self.trigger = trigger
    }
}
