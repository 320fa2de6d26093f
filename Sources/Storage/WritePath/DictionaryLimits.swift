/// Caps on the dictionaries of one app, so that garbage names cannot grow them without bound.
/// An event whose new name would pass a cap is rejected with its own code.
public struct DictionaryLimits: Sendable, Hashable {
    public var maxElementTypes: Int
    public var maxCommands: Int
    /// Distinct (app_version, platform, locale, is_test, menu_version, trigger) combinations.
    public var maxContexts: Int

    public init(maxElementTypes: Int = 1_000, maxCommands: Int = 10_000, maxContexts: Int = 10_000) {
        self.maxElementTypes = maxElementTypes
        self.maxCommands = maxCommands
        self.maxContexts = maxContexts
    }
}
