/// The device context of a batch: the app's version, platform and locale. Several versions run at
/// once (a staged rollout), on several platforms, in several languages.
public struct SimulationContext: Sendable, Equatable {
    public var appVersion: String
    public var platform: String
    public var locale: String
    /// Whether the platform opens menus by long press (touch) rather than secondary click.
    public var isTouch: Bool

    public static let triggers = ["right_click", "long_press", "keyboard"]

    public static let all: [SimulationContext] = {
        let versions = ["5.2.1", "5.2.0", "5.1.4"]
        let platforms: [(String, Bool)] = [("macOS 15.1", false), ("iOS 18.1", true), ("iPadOS 18.1", true)]
        let locales = ["en_US", "de_DE", "ru_RU", "ja_JP"]
        var contexts: [SimulationContext] = []
        for version in versions {
            for (platform, touch) in platforms {
                for locale in locales {
                    contexts.append(SimulationContext(appVersion: version, platform: platform, locale: locale, isTouch: touch))
                }
            }
        }
        return contexts
    }()

    /// How often each context sends: the newest version and the first platform and locale dominate.
    public static let weights: [Double] = {
        let versionShare = [0.62, 0.28, 0.10]
        let platformShare = [0.45, 0.40, 0.15]
        let localeShare = [0.5, 0.2, 0.2, 0.1]
        var weights: [Double] = []
        for v in versionShare { for p in platformShare { for l in localeShare { weights.append(v * p * l) } } }
        return weights
    }()

    /// A stable small id of (context, trigger), as a server's context dictionary would assign: 1-based.
    public static func contextID(context: Int, trigger: Int) -> Int {
        context * triggers.count + trigger + 1
    }
}
