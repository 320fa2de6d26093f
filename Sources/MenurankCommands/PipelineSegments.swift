import ArgumentParsing
import Postgres
import Ranking
import Storage

/// The options that choose which events rank, recommend and outcomes count (`SegmentFilter`):
/// test events only with `--include-test`; `--platform` (repeatable, or a comma list) and
/// `--min-app-version` narrow to some platforms and to the app versions from one on.
enum PipelineSegments {
    static let includeTest: Option<Bool> = .flag(
        "include-test", help: "Count test events (is_test) too; by default they are left out.")
    static let platforms: Option<[String]> = .repeating(
        "platform", valueName: "name",
        help: "Only events of this platform, by name: ios matches iOS 18.1 (repeat it or list several: ios,ipados).")
    static let minAppVersion: Option<String?> = .string(
        "min-app-version", valueName: "version",
        help: "Only events of this app version or later, compared as numbers (4.10 is after 4.9).")
    static let options: [OptionSpec] = [includeTest.spec, platforms.spec, minAppVersion.spec]

    /// What the commands' help says about them (a paragraph of their discussion).
    static let discussion = """
        Test events (is_test) are left out unless --include-test. --platform and --min-app-version \
        count only the events of those platforms (by name: ios is iOS 18.1 as well as iOS 17) and of \
        that app version or later (its leading dotted numbers, compared as numbers); events without a \
        platform or version never match them. They read the per-segment rollups, so they cost a little \
        more than the default; under --platform, a person seen on two platforms the same day counts \
        that day's user-day under one of them (the later app version's).
        """

    /// The filter the options ask for.
    /// - Throws: `CLIError.usage` (exit 64) for a platform that is not a name or a version that is
    ///   not dotted numbers.
    static func filter(_ values: ParsedValues) throws -> SegmentFilter {
        var filter = SegmentFilter(includeTest: values[includeTest])
        let names = values[platforms].flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        if !names.isEmpty {
            var platforms = Set<String>()
            for name in names.map({ String($0).trimmingSpaces }) {
                guard SegmentFilter.isPlatformName(name) else {
                    throw CLIError.usage("--platform takes platform names of letters only, such as ios or android (found \"\(name)\"); "
                        + "a platform's version is not part of its name")
                }
                platforms.insert(name.lowercased())
            }
            filter.platforms = platforms
        }
        if let text = values[minAppVersion] {
            guard let version = AppVersion(exactly: text) else {
                throw CLIError.usage("--min-app-version takes a version of dotted numbers, such as 4.2 or 10.0.3 (found \"\(text)\")")
            }
            filter.minAppVersion = version
        }
        return filter
    }

    /// The segment ids of `filter` for the rollups, or nil for the default filter (the default
    /// rollups, every non-test event).
    static func segments(_ filter: SegmentFilter, appID: Int32, on connection: PostgresConnection) throws -> [Int32]? {
        filter.isDefault ? nil : try SegmentStore().ids(appID: appID, matching: filter, on: connection)
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
