/// What the app says about itself, written into every event at record time (so an event recorded
/// before an app update still carries the version it was recorded under).
public struct MenurankContext: Sendable, Equatable {
    public var appVersion: String?
    public var platform: String?
    public var locale: String?
    /// A pseudonymous id of the person (the server hashes it again); nil sends none.
    public var user: String?
    /// An id of the current session; nil sends none.
    public var session: String?
    /// Marks test traffic (`is_test`).
    public var isTest: Bool

    public init(appVersion: String? = nil, platform: String? = nil, locale: String? = nil, user: String? = nil,
                session: String? = nil, isTest: Bool = false) {
        self.appVersion = appVersion
        self.platform = platform
        self.locale = locale
        self.user = user
        self.session = session
        self.isTest = isTest
    }
}
