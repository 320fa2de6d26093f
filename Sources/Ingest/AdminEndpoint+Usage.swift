import CivilTime
import Foundation
import HTTP
import JSON
import Outcomes
import Ranking
import Reports
import Storage

/// The usage dashboard's API (docs/review-page.md):
///
/// - `GET /v1/admin/apps`: the apps the token may see (`{"apps": [{"name"}]}`).
/// - `GET /v1/admin/outcomes?app=APP` with the same parameters: `menurank outcomes --format json`.
/// - `GET /v1/admin/usage?app=APP[&element_type=T][&from=D&to=D][&platform=P][&min_app_version=V]
///   [&include_test=true]`: the app's ranking over the window, the same document as `menurank rank
///   --format json` for the same arguments (`Reports.RankDocument`, read by the same
///   `RankingQuery` and ranked by the same `Ranker`), plus `filters`, `daily` (per element type its
///   selections and dismissals on each day of the window), `segments` (the platforms and app
///   versions the filters can pick) and `freshness` (what the rollups did not count yet).
///
/// Before answering it folds what the rollups have not counted yet (see `UsageStore`) when that
/// is small enough for a page; otherwise `freshness.uncounted_events` says how many events are
/// stored but not counted, on which days.
extension AdminEndpoint {
    /// The longest window the dashboard reads, as `--window` allows.
    static let maxWindowDays = 3650

    func apps(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            let names = try apps.apps().filter { grant.covers(appID: $0.appID) }.map(\.name)
            return RequestOutcome(.json(body: JSONValue.object([
                ("apps", .array(names.map { .object([("name", .string($0))]) })),
            ]).jsonText))
        }
    }

    func usage(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            let asked: UsageQuery
            switch UsageQuery.parse(request, today: clock.now().day) {
            case .success(let parsed): asked = parsed
            case .failure(let error): return RequestOutcome(error)
            }
            let appName: String
            if let name = asked.app {
                appName = name
            } else if let name = grant.appName {
                appName = name
            } else {
                return Self.error(.invalidQuery, "app is required: /v1/admin/usage?app=NAME")
            }
            // Another app's name gets the answer of a missing one (a scoped token learns nothing of it).
            guard let appID = try review.appID(named: appName), grant.covers(appID: appID) else {
                return Self.error(.unknownApp, "no app named \(appName.prefix(64))")
            }
            let elementTypes = asked.elementType.map { Set([$0]) }
            var members: [(key: String, value: JSONValue)]
            let daily: [String: (selections: [Int], dismissals: [Int])]
            let segments: [SegmentStore.Segment], backlog: RollupBacklog, folded: Int
            if asked.commands {
                let read = try usageStore.read(appID: appID, window: asked.window, elementTypes: elementTypes,
                                               filter: asked.filter)
                let ranker = Ranker(window: asked.window)
                let ranked = read.activities.map(ranker.rank).sorted { $0.elementType < $1.elementType }
                members = RankDocument.jsonValue(app: appName, window: asked.window, ranked, declared: read.declared)
                    .objectValue ?? []
                (daily, segments, backlog, folded) = (read.daily, read.segments, read.backlog, read.folded)
            } else {
                // The overview: the element types' own figures, no command read or ranked.
                let read = try usageStore.overview(appID: appID, window: asked.window, elementTypes: elementTypes,
                                                   filter: asked.filter)
                let undeclared = Dictionary(read.elementTypes.map { ($0.usage.elementType, $0.undeclared) },
                                            uniquingKeysWith: { first, _ in first })
                members = RankDocument.overviewValue(app: appName, window: asked.window, read.elementTypes.map(\.usage)) {
                    undeclared[$0.elementType]?.map { ($0.selections, $0.commands) }
                }.objectValue ?? []
                // (As `read.daily`: only element types with use on a day of the window.)
                daily = Dictionary(read.elementTypes.filter { $0.dailySelections.contains { $0 > 0 } || $0.dailyDismissals.contains { $0 > 0 } }
                    .map { ($0.usage.elementType, ($0.dailySelections, $0.dailyDismissals)) }, uniquingKeysWith: { first, _ in first })
                (segments, backlog, folded) = (read.segments, read.backlog, read.folded)
            }
            members.append(("filters", Self.filters(asked.filter)))
            members.append(("daily", .object(daily.keys.sorted().map { name in
                let series = daily[name]!
                return (name, .object([("selections", .array(series.selections.map { .number(JSONNumber($0)) })),
                                       ("dismissals", .array(series.dismissals.map { .number(JSONNumber($0)) }))]))
            })))
            members.append(("segments", .object([
                ("platforms", .array(Set(segments.map { SegmentFilter.platformName($0.platform) })
                    .filter { !$0.isEmpty }.sorted().map(JSONValue.string))),
                ("app_versions", .array(Self.versions(segments).map(JSONValue.string))),
            ])))
            members.append(("freshness", Self.freshness(backlog, folded: folded, readAt: clock.now())))
            var outcome = RequestOutcome(.json(body: JSONValue.object(members).jsonText))
            outcome.app = appName
            return outcome
        }
    }

    /// `GET /v1/admin/outcomes?app=APP[&element_type=T]` and the usage's window and filters: how each
    /// layout did over the window and each accepted one against the layout before it, the document
    /// of `menurank outcomes --format json` for the same arguments (without its rollouts, which
    /// `GET /v1/admin/rollouts` gives), plus `freshness` as the usage gives it. It folds what just
    /// arrived first, as the usage does (`UsageStore.fold`).
    func outcomes(_ request: HTTPRequest) -> RequestOutcome {
        authorized(request) { grant in
            // The usage's parameters but `commands`, which only the usage has.
            guard request.query("commands") == nil else {
                return Self.error(.invalidQuery, "unknown parameter commands (only /v1/admin/usage takes it)")
            }
            let asked: UsageQuery
            switch UsageQuery.parse(request, today: clock.now().day) {
            case .success(let parsed): asked = parsed
            case .failure(let error): return RequestOutcome(error)
            }
            guard let appName = asked.app ?? grant.appName else {
                return Self.error(.invalidQuery, "app is required: /v1/admin/outcomes?app=NAME")
            }
            // Another app's name gets the answer of a missing one (a scoped token learns nothing of it).
            guard let appID = try review.appID(named: appName), grant.covers(appID: appID) else {
                return Self.error(.unknownApp, "no app named \(appName.prefix(64))")
            }
            let (backlog, folded) = try usageStore.fold(appID: appID)
            let report = try layoutReview.outcomes(appID: appID, appName: appName,
                                                   from: asked.window.firstDay,
                                                   to: asked.window.asOf, elementType: asked.elementType,
                                                   filter: asked.filter,
                                                   predicted: PredictedEvidence.init(evidence:))
            var members = report.jsonValue.objectValue ?? []
            members.append(("freshness", Self.freshness(backlog, folded: folded, readAt: clock.now())))
            var outcome = RequestOutcome(.json(body: JSONValue.object(members).jsonText))
            outcome.app = appName
            return outcome
        }
    }

    /// How current the figures of an answer are: the events the reading folded first, what the
    /// rollups still leave out (events and their days), when the app's last rollup took its queue
    /// (`rolled_up_at`, null before its first rollup: every event stored before it is counted) and
    /// when the answer was read.
    static func freshness(_ backlog: RollupBacklog, folded: Int, readAt: UTCTimestamp) -> JSONValue {
        .object([
            ("folded_events", .number(JSONNumber(folded))),
            ("uncounted_events", .number(JSONNumber(backlog.uncountedEvents))),
            ("uncounted_days", .array(backlog.days.map { .string(ReportDate.day($0)) })),
            ("rolled_up_at", backlog.rolledUpAt.map { .string($0.description) } ?? .null),
            ("read_at", .string(readAt.description)),
        ])
    }

    static func filters(_ filter: SegmentFilter) -> JSONValue {
        .object([
            ("platforms", filter.platforms.map { .array($0.sorted().map(JSONValue.string)) } ?? .null),
            ("min_app_version", filter.minAppVersion.map { .string($0.description) } ?? .null),
            ("include_test", .bool(filter.includeTest)),
        ])
    }

    /// The app versions of the segments, distinct, newest first (compared as numbers).
    static func versions(_ segments: [SegmentStore.Segment]) -> [String] {
        let texts = Set(segments.map(\.appVersion).filter { !$0.isEmpty })
        return texts.sorted { a, b in
            switch (AppVersion(leadingNumbersOf: a), AppVersion(leadingNumbersOf: b)) {
            case let (x?, y?) where x != y: return x > y
            default: return a > b
            }
        }
    }
}

/// The arguments of `GET /v1/admin/usage`, checked as `menurank rank` checks its options.
struct UsageQuery: Equatable {
    var app: String?
    var elementType: String?
    var window: RankingWindow
    var filter: SegmentFilter
    /// Whether each element type carries its ranked commands; `commands=false` asks for the
    /// overview (the element types' own figures only), which the dashboard lists.
    var commands = true

    static let known: Set<String> = ["app", "element_type", "from", "to", "platform", "min_app_version", "include_test",
                                     "commands"]

    /// The query of `request`, or a 400 `invalid_query` naming what is wrong. `today` is the
    /// default last day (UTC); the default window is `RankingWindow.defaultLength` days.
    static func parse(_ request: HTTPRequest, today: CivilDate) -> Swift.Result<UsageQuery, IngestError> {
        func bad(_ message: String) -> Swift.Result<UsageQuery, IngestError> {
            .failure(IngestError(.invalidQuery, message: message))
        }
        for (name, _) in request.queryParameters where !known.contains(name) {
            return bad("unknown parameter \(name.prefix(64)); known: \(known.sorted().joined(separator: ", "))")
        }
        let app = request.query("app").flatMap { $0.isEmpty ? nil : $0 }
        var elementType: String?
        if let text = request.query("element_type"), !text.isEmpty {
            guard text.utf8.count <= 128, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                return bad("element_type must be 1-128 printable ASCII characters without spaces")
            }
            elementType = text
        }
        func day(_ name: String) -> Swift.Result<CivilDate?, IngestError> {
            guard let text = request.query(name), !text.isEmpty else { return .success(nil) }
            guard let date = CivilDate(parsing: text) else {
                return .failure(IngestError(.invalidQuery, message: "\(name) must be a day, YYYY-MM-DD"))
            }
            return .success(date)
        }
        let to: CivilDate, from: CivilDate
        switch (day("to"), day("from")) {
        case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
        case (.success(let last), .success(let first)):
            to = last ?? today
            from = first ?? to.adding(days: 1 - RankingWindow.defaultLength)
        }
        guard from <= to else { return bad("from must not be after to") }
        guard from.distance(to: to) + 1 <= AdminEndpoint.maxWindowDays else {
            return bad("the window is at most \(AdminEndpoint.maxWindowDays) days")
        }
        var filter = SegmentFilter()
        switch request.query("include_test") {
        case nil, "", "false": break
        case "true": filter.includeTest = true
        default: return bad("include_test must be true or false")
        }
        let platforms = request.queryParameters.filter { $0.name == "platform" }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: true) }
            .map { String($0).trimmingCharacters(in: .whitespaces) }
        if !platforms.isEmpty {
            guard platforms.allSatisfy(SegmentFilter.isPlatformName) else {
                return bad("platform takes platform names of letters only, such as ios or android")
            }
            filter.platforms = Set(platforms.map { $0.lowercased() })
        }
        if let text = request.query("min_app_version"), !text.isEmpty {
            guard let version = AppVersion(exactly: text) else {
                return bad("min_app_version takes a version of dotted numbers, such as 4.2 or 10.0.3")
            }
            filter.minAppVersion = version
        }
        var commands = true
        switch request.query("commands") {
        case nil, "", "true": break
        case "false": commands = false
        default: return bad("commands must be true or false")
        }
        return .success(UsageQuery(app: app, elementType: elementType,
                                   window: RankingWindow(asOf: to, length: from.distance(to: to) + 1), filter: filter, commands: commands))
    }
}
