/// Which events the ranking counts, by the context they were sent in: test events (`is_test`) are
/// left out unless `includeTest`; `platforms`, when given, keeps the events of those platforms; and
/// `minAppVersion`, when given, the events of that app version or a later one (`AppVersion`).
///
/// A platform is named by the leading letters of the `platform` the app sent, in lower case
/// (`platformName`): "iOS 18.1" is `ios`, "Android 14" is `android`, so one name covers every OS
/// version of a platform. An event without a platform, or without a version that starts with a
/// number, never matches a platform or version filter.
///
/// The rollups keep their counts per segment of an app (test flag, platform name, app version;
/// `segments`, sql/0014), so the same filter picks segments there, and `menurank recommend
/// --manifest --events` applies it to each event.
public struct SegmentFilter: Sendable, Hashable {
    public var includeTest: Bool
    /// Platform names (`platformName`); nil for every platform.
    public var platforms: Set<String>?
    public var minAppVersion: AppVersion?

    public init(includeTest: Bool = false, platforms: Set<String>? = nil, minAppVersion: AppVersion? = nil) {
        self.includeTest = includeTest
        self.platforms = platforms
        self.minAppVersion = minAppVersion
    }

    /// The default: every event that is not a test event.
    public static let `default` = SegmentFilter()

    /// True for the default filter (only test events left out).
    public var isDefault: Bool { self == .default }

    /// Whether an event sent with this context counts.
    /// - Parameters:
    ///   - platform: the platform as the app sent it (or its name already), nil or "" when none.
    ///   - appVersion: the app version as the app sent it, nil or "" when none.
    public func matches(isTest: Bool, platform: String?, appVersion: String?) -> Bool {
        if isTest, !includeTest { return false }
        if let platforms, !platforms.contains(Self.platformName(platform ?? "")) { return false }
        if let minAppVersion {
            guard let version = AppVersion(leadingNumbersOf: appVersion ?? ""), version >= minAppVersion else { return false }
        }
        return true
    }

    /// The name of a platform as filters use it: its leading ASCII letters (after leading spaces),
    /// in lower case; "" when it has none. The rollups compute the same in SQL
    /// (`lower(substring(ltrim(platform) from '^[A-Za-z]*'))`).
    public static func platformName(_ platform: String) -> String {
        String(platform.drop { $0 == " " }.prefix { $0.isASCII && $0.isLetter }).lowercased()
    }

    /// A platform name as `--platform` takes it: ASCII letters only (any case), at most 64.
    public static func isPlatformName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && $0.isLetter }
    }
}
