import CivilTime
import Foundation
import HTTP
import Ranking
import Storage
import TestSupport
import Testing

/// The usage dashboard's API (`GET /v1/admin/usage`, `GET /v1/admin/apps`) on the real daemon:
/// its figures are `menurank rank --format json`'s (the real binary, same arguments, same
/// database), events that just arrived are counted before it answers (or, past the fold limit,
/// reported as not counted yet), and tokens and queries are checked like the rest of the admin API.
@Suite(TestDatabase.enabled) struct UsageAPITests {
    static func request(_ daemon: Daemon, _ path: String, token: String?) throws -> Reply {
        var headers: HTTPHeaders = [:]
        if let token { headers.set("Authorization", "Bearer \(token)") }
        return Reply(try daemon.client().send(method: "GET", path: path, headers: headers))
    }

    static var today: String { day(offset: 0) }

    static func day(offset days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
    }

    /// Imports the manifest and sends 360 events through the daemon's ingestion API: two platforms,
    /// two app versions, a third of them test events, one command the manifest does not declare,
    /// a few dismissals, over the last three days. Returns how many were accepted.
    static func sendEvents(_ daemon: Daemon) throws -> Int {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID().uuidString).json")
        try ReviewFixture.manifest.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try ReviewFixture.menurank(daemon, ["menus", "import", file.path])
        try #require(imported.status == 0, "menus import: \(imported.standardError)")
        let commands = ["reply", "reply", "reply", "forward", "archive", "zap", "delete", "reply_all"]
        var accepted = 0
        for (index, context) in [
            #"{"platform": "iOS 18.1", "app_version": "4.10.2", "is_test": false}"#,
            #"{"platform": "Android 15", "app_version": "4.9", "is_test": false}"#,
            #"{"platform": "iOS 17", "app_version": "4.9.1", "is_test": true}"#,
        ].enumerated() {
            let events = (0..<120).map { i in
                let offset = -Double(i % 3) * 86_400 - 60
                let user = "\"user\":\"u\(index)-\(i % 17)\""
                return i % 15 == 0
                    ? Payload.event(time: Payload.now(offsetSeconds: offset), command: nil, extra: "\"kind\":\"dismiss\"," + user)
                    : Payload.event(time: Payload.now(offsetSeconds: offset), command: commands[i % commands.count], extra: user)
            }
            let reply = try daemon.post(Payload.batch(events, context: context))
            try #require(reply.status == 200, "\(reply.text)")
            accepted += reply.accepted
        }
        return accepted
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    @Test func figuresEqualRankOfTheRealBinaryAndNewEventsCount() throws {
        try Daemon.with(prefix: "usage_api") { daemon in
            let sent = try Self.sendEvents(daemon)
            #expect(sent == 360)
            let token = try TokenStore(pool: daemon.pool).create(name: "uma", appName: nil).token

            // Nothing rolled up yet: the API counts what just arrived before answering.
            let first = try Self.request(daemon, "/v1/admin/usage?app=alpha", token: token)
            try #require(first.status == 200, "\(first.text)")
            let freshness = try #require(first.json["freshness"] as? [String: Any])
            #expect(freshness["folded_events"] as? Int == 360, "\(freshness)")
            #expect(freshness["uncounted_events"] as? Int == 0)
            let types = try #require(first.json["element_types"] as? [[String: Any]])
            #expect(types.map { $0["element_type"] as? String } == ["mail.message"])
            #expect(types.first?["selections"] as? Int == 224, "\(types)")
            #expect(types.first?["undeclared_selections"] as? Int == 28, "\(types)")
            #expect(types.first?["undeclared_commands"] as? [String] == ["zap"])
            let daily = try #require((first.json["daily"] as? [String: Any])?["mail.message"] as? [String: [Int]])
            #expect(daily["selections"]?.count == 28)
            #expect(daily["selections"]?.reduce(0, +) == 224)
            #expect(daily["dismissals"]?.reduce(0, +) == 16)
            let segments = try #require(first.json["segments"] as? [String: [String]])
            #expect(segments["platforms"] == ["android", "ios"])
            #expect(segments["app_versions"] == ["4.10.2", "4.9.1", "4.9"])

            // The same figures as `menurank rank --format json` for the same arguments.
            let from = Self.day(offset: -6), to = Self.today
            let cases: [(query: String, arguments: [String])] = [
                ("", []),
                ("&from=\(from)&to=\(to)", ["--as-of", to, "--window", "7d"]),
                ("&element_type=mail.message", ["--element-type", "mail.message"]),
                ("&platform=ios", ["--platform", "ios"]),
                ("&platform=ios,android&include_test=true", ["--platform", "ios,android", "--include-test"]),
                ("&min_app_version=4.10", ["--min-app-version", "4.10"]),
                ("&include_test=true&from=\(from)&to=\(to)", ["--include-test", "--as-of", to, "--window", "7d"]),
                ("&element_type=nothing.here", ["--element-type", "nothing.here"]),
                // Two days, so the previous window (two days before) has use: a trend.
                ("&from=\(Self.day(offset: -1))&to=\(to)&platform=android", ["--as-of", to, "--window", "2d", "--platform", "android"]),
                ("&from=\(Self.day(offset: -1))&to=\(to)", ["--as-of", to, "--window", "2d"]),
            ]
            for (query, arguments) in cases {
                let api = try Self.request(daemon, "/v1/admin/usage?app=alpha" + query, token: token)
                try #require(api.status == 200, "\(query): \(api.text)")
                let cli = try ReviewFixture.menurank(daemon, ["rank", "--app", "alpha", "--format", "json"]
                    + (arguments.contains("--as-of") ? [] : ["--as-of", to]) + arguments)
                try #require(cli.status == 0, "rank \(arguments): \(cli.standardError)")
                let ranked = try Self.object(cli.standardOutput)
                #expect(Set(ranked.keys) == ["app", "window", "element_types"])
                for key in ranked.keys {
                    #expect((api.json[key] as? NSObject)?.isEqual(ranked[key]) == true,
                            "\(query) \(key): API \(String(describing: api.json[key])) rank \(String(describing: ranked[key]))")
                }
                // The dashboard's overview (commands=false): rank's element types without their
                // commands, the same daily series, read without ranking.
                let overview = try Self.request(daemon, "/v1/admin/usage?app=alpha&commands=false" + query, token: token)
                try #require(overview.status == 200, "\(query): \(overview.text)")
                var withoutCommands = ranked
                withoutCommands["element_types"] = (ranked["element_types"] as? [[String: Any]])?.map { element in
                    element.filter { $0.key != "commands" }
                }
                for key in ranked.keys {
                    #expect((overview.json[key] as? NSObject)?.isEqual(withoutCommands[key]) == true,
                            "overview \(query) \(key): \(String(describing: overview.json[key])) rank \(String(describing: withoutCommands[key]))")
                }
                #expect((overview.json["daily"] as? NSObject)?.isEqual(api.json["daily"]) == true, "\(query): \(overview.text.prefix(600))")
                #expect((overview.json["segments"] as? NSObject)?.isEqual(api.json["segments"]) == true)
            }
            let trended = try Self.request(daemon, "/v1/admin/usage?app=alpha&commands=false&from=\(Self.day(offset: -1))", token: token)
            #expect(((trended.json["element_types"] as? [[String: Any]])?.first?["trend"] as? [String: Any]) != nil, "\(trended.text.prefix(400))")
            let filtered = try Self.request(daemon, "/v1/admin/usage?app=alpha&platform=ios&include_test=true", token: token)
            #expect((filtered.json["filters"] as? [String: Any])?["platforms"] as? [String] == ["ios"])
            #expect((filtered.json["element_types"] as? [[String: Any]])?.first?["selections"] as? Int == 224)

            // lint --app counts them too (HIG-1), the same 28 selections of "zap" the dashboard and rank show.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).json")
            try ReviewFixture.manifest.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let lint = try ReviewFixture.menurank(daemon, ["lint", file.path, "--app", "alpha", "--as-of", to, "--format", "json"])
            let findings = try #require(try Self.object(lint.standardOutput)["findings"] as? [[String: Any]], "\(lint.standardError)")
            let undeclared = findings.filter { ($0["message"] as? String)?.contains("does not declare") == true }
            #expect(undeclared.count == 1, "\(findings)")
            #expect(undeclared.first?["rule"] as? String == "HIG-1" && undeclared.first?["severity"] as? String == "warning")
            #expect(undeclared.first?["message"] as? String == "28 selections of mail.message in telemetry name 1 command the "
                + "manifest does not declare (zap); declare them in commands, or fix the command ids the app sends",
                    "\(undeclared)")
            let text = try ReviewFixture.menurank(daemon, ["lint", file.path, "--app", "alpha", "--as-of", to])
            #expect(text.standardOutput.contains("28 selections of mail.message in telemetry name 1 command"), "\(text.standardOutput)")
        }
    }

    @Test func aBacklogPastTheFoldLimitIsReportedNotHidden() throws {
        try Daemon.with(prefix: "usage_backlog") { daemon in
            _ = try Self.sendEvents(daemon)
            let app = daemon.alpha.app.appID
            let window = RankingWindow(asOf: WallClock.system.now().day)
            let waiting = try UsageStore(pool: daemon.pool, foldLimit: 10).read(appID: app, window: window)
            #expect(waiting.activities.isEmpty)
            #expect(waiting.folded == 0)
            #expect(waiting.backlog.uncountedEvents == 360)
            #expect(waiting.backlog.days.count == 3)
            let folded = try UsageStore(pool: daemon.pool).read(appID: app, window: window)
            #expect(folded.folded == 360)
            #expect(folded.backlog.isEmpty)
            #expect(folded.activities.map(\.elementType) == ["mail.message"])
        }
    }

    @Test func tokensAndQueriesAreChecked() throws {
        try Daemon.with(prefix: "usage_authz") { daemon in
            let tokens = TokenStore(pool: daemon.pool)
            let all = try tokens.create(name: "ada", appName: nil).token
            let beta = try tokens.create(name: "bea", appName: "beta").token
            #expect(try Self.request(daemon, "/v1/admin/usage?app=alpha", token: nil).status == 401)
            #expect(try Self.request(daemon, "/v1/admin/usage?app=alpha", token: daemon.alpha.writeKey).error == "wrong_key_kind")
            let outside = try Self.request(daemon, "/v1/admin/usage?app=alpha", token: beta)
            #expect(outside.status == 404)
            #expect(outside.error == "unknown_app")
            let own = try Self.request(daemon, "/v1/admin/usage", token: beta)
            #expect(own.status == 200, "\(own.text)")
            #expect(own.json["app"] as? String == "beta")
            let apps = try Self.request(daemon, "/v1/admin/apps", token: beta)
            #expect((apps.json["apps"] as? [[String: String]])?.map { $0["name"] } == ["beta"])
            let every = try Self.request(daemon, "/v1/admin/apps", token: all)
            #expect((every.json["apps"] as? [[String: String]])?.map { $0["name"] } == ["alpha", "beta"])
            #expect(try Self.request(daemon, "/v1/admin/usage", token: all).status == 400)
            #expect(try Self.request(daemon, "/v1/admin/usage?app=nobody", token: all).status == 404)
            for bad in ["from=2026-13-01", "to=yesterday", "from=2026-02-02&to=2026-02-01", "platform=ios18",
                        "min_app_version=v4", "include_test=yes", "commands=no", "element_type=a%20b", "colour=red",
                        "from=1990-01-01&to=2026-01-01"] {
                let reply = try Self.request(daemon, "/v1/admin/usage?app=alpha&" + bad, token: all)
                #expect(reply.status == 400, "\(bad): \(reply.text)")
                #expect(reply.error == "invalid_query", "\(bad): \(reply.text)")
            }
        }
    }
}
