import CivilTime
import Foundation
import HTTP
import Ranking
import Storage
import TestSupport
import Testing

/// The review page (`GET /admin`) in real headless Chromium against the real daemon, driven over
/// the DevTools protocol by `Tests/browser/review_page.py`: a reviewer signs in with an admin token
/// (an app's write key is refused on the page), reads the usage dashboard (element types with their
/// daily trend, one element type's ranking as a chart with a legend and a table, filtered by
/// platform), opens the proposal drawn as menus with a reason for each move and its ladder, chooses
/// a larger step, accepts it after confirming (a cancel first changes nothing), sees who decided,
/// and rolls the accepted layout back from the element type's page. At a phone's width the page
/// does not scroll sideways, and no step logs an error to the console.
@Suite(TestDatabase.enabled) struct ReviewPageBrowserTests {
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func reviewerReadsUsageAndAcceptsAProposalInTheBrowser() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (scripts/deps installs it)")
        try Daemon.with(prefix: "admin_page") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            // Events from iOS that arrive after the night's run: the dashboard counts them at once.
            let ios = (0..<30).map { i in
                Payload.event(command: i % 3 == 0 ? "archive" : "reply", extra: "\"user\":\"phone-\(i % 7)\"")
            }
            let sent = try daemon.post(Payload.batch(ios, context: #"{"platform": "iOS 18.1", "app_version": "5.0"}"#))
            try #require(sent.accepted == 30, "\(sent.text)")
            // The proposal's ladder is the one the real night filed (DESIGN.md's mail example: the
            // regroup step, since the smaller steps keep four groups; promote and reorder offered).
            let token = try TokenStore(pool: daemon.pool).create(name: "dana", appName: nil).token
            let shown = Reply(try daemon.client().send(method: "GET", path: "/v1/admin/proposals/\(id)",
                                                       headers: ["Authorization": "Bearer \(token)"]))
            #expect((shown.json["ladder"] as? [Any])?.count == 3, "\(shown.text.prefix(300))")
            let before = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(before.status == 200)

            let page = try daemon.client().send(method: "GET", path: "/admin")
            #expect(page.status == 200)
            let policy = try #require(page.headers["Content-Security-Policy"])
            #expect(policy.contains("script-src 'sha256-") && !policy.contains("unsafe-eval") && !policy.contains("script-src 'unsafe"))
            #expect(page.headers["Set-Cookie"] == nil)

            let shots = try RepositoryPaths.root().appendingPathComponent(".menurank/screenshots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            let script = try RepositoryPaths.root().appendingPathComponent("Tests/browser/review_page.py").path
            let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                "python3", script, "--url", "http://127.0.0.1:\(daemon.port)", "--token", token,
                "--proposal", String(id), "--note", "fewer items to scan", "--wrong-token", daemon.alpha.writeKey,
                "--platform", "ios", "--from-day", UsageAPITests.day(offset: -29), "--step", "reorder",
                "--rollback-note", "people missed Print", "--screenshots", shots.path, "--chromium", chromium,
            ])
            try #require(result.status == 0, "review_page.py failed: \(result.standardError)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect((seen["wrong_token_error"] as? String)?.contains("write or read key") == true, "\(seen)")
            #expect(seen["who"] as? String == "Signed in as dana (all apps)")
            #expect(seen["storage_token"] as? Bool == true)
            #expect(seen["cookies"] as? String == "")

            // The dashboard, its window from the fixture's first day to today: DESIGN.md's 10,140
            // selections plus the 30 iOS replies and archives sent after the night's run, counted
            // before the page was answered.
            let rows = try #require(seen["dashboard_rows"] as? [[String]], "\(seen)")
            #expect(rows.count == 1)
            #expect(rows.first?.prefix(2) == ["mail.message", "10,170"], "\(rows)")
            #expect(seen["sparklines"] as? Int == 1)
            #expect(seen["element_title"] as? String == "alpha mail.message")
            let ranking = try #require(seen["ranking"] as? [[String]])
            #expect(ranking.first?.prefix(2) == ["reply", "4,120"], "\(ranking)")
            #expect((seen["chart_bars"] as? Int ?? 0) >= 2 * ranking.count, "\(seen)")
            #expect((seen["legend"] as? String)?.contains("95% interval") == true)
            let filtered = try #require(seen["filtered_ranking"] as? [[String]])
            #expect(filtered.map(\.first) == ["reply", "archive"], "\(filtered)")
            #expect(filtered.map { $0[1] } == ["20", "10"], "\(filtered)")

            #expect(seen["listed"] as? [String] == [String(id)])
            #expect(seen["title"] as? String == "Proposal #\(id): alpha mail.message")
            #expect((seen["diff"] as? String)?.contains("Reply") == true, "\(seen)")
            #expect((seen["served_after_accept"] as? String)?.contains("\"mail.message\"") == true)
            #expect(seen["served_collapsed"] as? Bool == true)
            #expect((seen["chart_bars_report"] as? Int ?? 0) > 0, "\(seen)")
            #expect(seen["status_before"] as? String == "pending")
            // The proposal drawn as menus, with reasons in words and the evidence behind details.
            #expect(seen["current_menu"] as? [String] == ["Reply", "Reply All", "Forward", "|", "Move...", "Archive", "Flag", "|",
                                                          "Share", "|", "Delete"], "\(seen)")
            let proposed = try #require(seen["proposed_items"] as? [String])
            #expect(!proposed.isEmpty && Set(proposed).isSubset(of: Set(ReviewFixture.counts.map { $0.0 })), "\(proposed)")
            #expect(seen["destructive"] as? [String] == ["delete", "delete"], "\(seen)")
            let reasons = try #require(seen["reasons"] as? [String])
            #expect(!reasons.isEmpty && reasons.allSatisfy { $0.contains("% of people") }, "\(reasons)")
            #expect((seen["summary"] as? String)?.contains("items on average") == true, "\(seen)")
            #expect((seen["evidence"] as? String)?.hasPrefix("Based on 10,140 selections by ") == true, "\(seen["evidence"] ?? "")")
            #expect(seen["details_closed"] as? Bool == true)
            #expect((seen["details_text"] as? String)?.contains("Cockburn") == true, "\(seen)")
            let steps = try #require(seen["steps"] as? [[String]])
            #expect(steps.map(\.first) == ["promote", "reorder", "regroup"], "\(steps)")
            #expect(steps.last?.last?.contains("(proposed)") == true && steps.last?.last?.contains("% of the best gain") == true,
                    "\(steps)")
            #expect(steps.dropLast().allSatisfy { $0.last?.contains("(proposed)") == false }, "\(steps)")
            // A smaller step says why it is not the proposal (DESIGN's mail example: four groups).
            #expect(steps.dropLast().allSatisfy { $0.last?.contains("Not proposed: leaves more groups than allowed (HIG-6), which a larger step fixes") == true },
                    "\(steps)")
            // The reorder step as the night made it: Print pruned in every step (invariant 7), Copy
            // Link out of the Share submenu it would be alone in.
            #expect(seen["step_items"] as? [String] == ["reply", "forward", "reply_all", "archive", "move", "flag", "copy_link",
                                                        "delete"], "\(seen)")
            #expect((seen["confirm_text"] as? String)?.contains("Accept proposal #\(id)") == true, "\(seen)")
            #expect(seen["status_after_cancel"] as? String == "pending")
            #expect(seen["status_after"] as? String == "accepted")
            #expect(seen["decided_by"] as? String == "token:dana")
            #expect(seen["note"] as? String == "fewer items to scan")
            #expect(seen["decide_hidden"] as? Bool == true)
            #expect((seen["confirm_text"] as? String)?.contains("reorder step") == true, "\(seen)")
            let decision = try #require((seen["decision_body"] as? String).flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            #expect(decision["step"] as? String == "reorder", "\(decision)")
            // The rollback from the element type's page.
            #expect((seen["layout_before_rollback"] as? String)?.contains("accepted proposal #\(id)") == true, "\(seen)")
            #expect((seen["rollback_confirm"] as? String)?.contains("Roll back mail.message") == true, "\(seen)")
            #expect((seen["layout_after_rollback"] as? String)?.contains("rollback of proposal #\(id)") == true, "\(seen)")
            #expect((seen["rollbacks"] as? String)?.contains("token:dana rolled back proposal #\(id)") == true, "\(seen)")
            #expect(seen["rollback_button_gone"] as? Bool == true)
            #expect(seen["phone_overflow_dashboard"] as? Int == 0, "\(seen)")
            #expect(seen["phone_overflow_proposal"] as? Int == 0, "\(seen)")
            // The ranking at 390 px: the chart with labels above the bars, across the width, its
            // text at its own size (the wide chart scaled to the phone drew 12 px labels at 6 px).
            let phoneChart = try #require(seen["phone_chart"] as? [String: Any], "\(seen)")
            #expect(phoneChart["wide_shown"] as? Bool == false && phoneChart["narrow_shown"] as? Bool == true, "\(phoneChart)")
            #expect((phoneChart["narrow_width"] as? Int ?? 0) >= 330, "\(phoneChart)")
            #expect((phoneChart["label_height"] as? Int ?? 0) >= 12, "\(phoneChart)")
            #expect(phoneChart["label"] as? String == ranking.first?.first, "\(phoneChart)")
            #expect(seen["phone_overflow_element"] as? Int == 0, "\(seen)")
            #expect(seen["desktop_chart_wide_shown"] as? Bool == true, "\(seen)")
            #expect(seen["console_problems"] as? [String] == [], "\(seen)")

            // The ladder reads the same on the page, in the embedded report, in the API and in
            // `proposals show --format json`: each step's moves and scan depth, and the filed step's
            // scan depth is the proposal's own.
            let cli = try ReviewFixture.menurank(daemon, ["proposals", "show", String(id), "--format", "json"])
            try #require(cli.status == 0, "proposals show: \(cli.standardError)")
            let cliJSON = try #require(try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [String: Any])
            let document = try #require(cliJSON["proposal"] as? [String: Any])
            let cliLadder = try #require(document["ladder"] as? [[String: Any]], "\(cli.standardOutput.prefix(400))")
            let apiLadder = try #require(shown.json["ladder"] as? [[String: Any]])
            func rungs(_ ladder: [[String: Any]]) -> [String] {
                ladder.map { rung in
                    let depth = (rung["scan_depth"] as? Double).map { String(format: "%.2f", $0) } ?? "-"
                    return "\(rung["step"] as? String ?? "?") \(rung["moves"] as? Int ?? -1) \(depth)"
                }
            }
            #expect(rungs(apiLadder) == rungs(cliLadder), "\(rungs(apiLadder)) against \(rungs(cliLadder))")
            let proposedDepth = try #require((document["scan_depth"] as? [String: Any])?["proposed"] as? Double)
            let filed = try #require(cliLadder.first { $0["filed"] as? Bool == true }, "\(cliLadder)")
            #expect(filed["step"] as? String == document["step"] as? String, "\(filed)")
            #expect(filed["scan_depth"] as? Double == proposedDepth, "\(filed)")
            #expect((filed["moves"] as? Int ?? 0) > 0, "\(filed)")
            let reportSteps = try #require(seen["report_steps"] as? [String], "\(seen)")
            #expect(reportSteps.count == cliLadder.count, "\(reportSteps)")
            for (index, rung) in cliLadder.enumerated() where rung["offered"] as? Bool == true {
                let moves = rung["moves"] as? Int ?? -1
                let facts = "\(moves) move\(moves == 1 ? "" : "s"), scan depth "
                    + String(format: "%.2f", rung["scan_depth"] as? Double ?? -1)
                #expect(steps[index].last?.contains(facts) == true, "page: \(steps[index]) against \(facts)")
                #expect(reportSteps[index].contains(facts), "report: \(reportSteps[index]) against \(facts)")
            }

            // Accepted, then rolled back: the layout from before is served again, as a new version.
            let after = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(after.status == 200)
            #expect(after.headers["ETag"] != before.headers["ETag"])
            #expect(try daemon.count("SELECT count(*) FROM layouts WHERE source = 'rollback'") == 1)
            let row = try daemon.schema.connect().query(
                "SELECT status, decided_by, note, decided_at IS NOT NULL FROM proposals WHERE proposal_id = \(id)")[0]
            #expect(try row.decode(String.self, at: 0) == "accepted")
            #expect(try row.decode(String.self, at: 1) == "token:dana")
            #expect(try row.decode(String.self, at: 2) == "fewer items to scan")
            #expect(try row.decode(Bool.self, at: 3))
        }
    }

    /// Figures never stale without a word: the night's rollup stores its time (sql/0023); an event
    /// ingested after it is pending on the proposal's page and in its API (which fold nothing) with
    /// that rollup's time, and in the usage store past its fold limit; the element type's page
    /// then counts it before answering, and its outcomes say so with the newer rollup's time.
    @Test func everyViewSaysHowOldItsFiguresAreAndWhatIsPending() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (scripts/deps installs it)")
        try Daemon.with(prefix: "admin_fresh") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let app = daemon.alpha.app.appID
            func rolledUpAt() throws -> String {
                try daemon.schema.connect().query("""
                    SELECT to_char(rolled_up_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') FROM rollup_times WHERE app_id = \(app)
                    """)[0].decode(at: 0)
            }
            let night = try rolledUpAt()
            let late = (0..<5).map { i in Payload.event(command: "reply", extra: "\"user\":\"late-\(i)\"") }
            let sent = try daemon.post(Payload.batch(late))
            try #require(sent.accepted == 5, "\(sent.text)")
            let token = try TokenStore(pool: daemon.pool).create(name: "fay", appName: nil).token

            let shown = try UsageAPITests.request(daemon, "/v1/admin/proposals/\(id)", token: token)
            let pending = try #require(shown.json["freshness"] as? [String: Any], "\(shown.text.prefix(300))")
            #expect(pending["uncounted_events"] as? Int == 5, "\(pending)")
            #expect(pending["folded_events"] as? Int == 0)
            #expect(pending["rolled_up_at"] as? String == night.replacingOccurrences(of: " ", with: "T") + "Z", "\(pending) \(night)")
            let today = WallClock.system.now().day
            let waiting = try UsageStore(pool: daemon.pool, foldLimit: 1).overview(appID: app, window: RankingWindow(asOf: today))
            #expect(waiting.backlog.uncountedEvents == 5 && waiting.folded == 0, "\(waiting.backlog)")
            #expect(waiting.backlog.rolledUpAt?.description == night.replacingOccurrences(of: " ", with: "T") + "Z")

            let script = try RepositoryPaths.root().appendingPathComponent("Tests/browser/review_page.py").path
            let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                "python3", script, "--url", "http://127.0.0.1:\(daemon.port)", "--token", token, "--chromium", chromium,
                "--flow", "freshness", "--proposal", String(id), "--element-type", "mail.message",
            ])
            try #require(result.status == 0, "review_page.py failed: \(result.standardError)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let minute = String(night.prefix(16))
            #expect((seen["proposal_rollups"] as? String)?.contains("as of the rollup of \(minute) UTC; 5 stored events") == true,
                    "\(seen)")
            #expect((seen["proposal_rollups"] as? String)?.contains("pending") == true, "\(seen)")
            #expect((seen["element_freshness"] as? String)?.contains("every stored event is counted (5 that had just arrived") == true,
                    "\(seen)")
            #expect((seen["outcomes_freshness"] as? String)?.contains("every stored event is counted") == true, "\(seen)")
            #expect(seen["console_problems"] as? [String] == [], "\(seen)")

            // The page's reading rolled them up: the outcomes API says so, with the newer rollup's time.
            let outcomes = try UsageAPITests.request(daemon, "/v1/admin/outcomes?app=alpha", token: token)
            let counted = try #require(outcomes.json["freshness"] as? [String: Any], "\(outcomes.text.prefix(300))")
            #expect(counted["uncounted_events"] as? Int == 0 && counted["folded_events"] as? Int == 0, "\(counted)")
            let newer = try #require(counted["rolled_up_at"] as? String)
            #expect(newer > night.replacingOccurrences(of: " ", with: "T") + "Z", "\(newer) after \(night)")
            #expect(newer == (try rolledUpAt()).replacingOccurrences(of: " ", with: "T") + "Z")
        }
    }

    /// A rollout on the page: the proposal accepted as a rollout to 20% of people after confirming;
    /// three days of picks of both arms (the rollout's faster, a fifth of the people in it); then the element type's page shows
    /// the rollout's state, arms named current and rollout, its verdict, the latest look's figures
    /// and the intervals over the days as charts, refuses a decision without a reason, widens it to
    /// 40% and promotes it, each after confirming, with no console error and no sideways scrolling
    /// at a phone's width.
    @Test func reviewerRollsOutAProposalAndPromotesItInTheBrowser() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (scripts/deps installs it)")
        try Daemon.with(prefix: "admin_rollout") { daemon in
            let id = try ReviewFixture.pendingProposal(daemon)
            let token = try TokenStore(pool: daemon.pool).create(name: "dana", appName: nil).token
            let shots = try RepositoryPaths.root().appendingPathComponent(".menurank/screenshots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            let script = try RepositoryPaths.root().appendingPathComponent("Tests/browser/review_page.py").path
            func page(_ arguments: [String]) throws -> [String: Any] {
                let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                    "python3", script, "--url", "http://127.0.0.1:\(daemon.port)", "--token", token, "--chromium", chromium,
                    "--screenshots", shots.path,
                ] + arguments)
                try #require(result.status == 0, "review_page.py failed: \(result.standardError)")
                return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            }
            let accepted = try page(["--flow", "rollout-accept", "--proposal", String(id), "--rollout-share", "20",
                                     "--note", "try it on a few"])
            #expect((accepted["confirm_text"] as? String)?.contains("Roll out proposal #\(id) for mail.message to 20% of people") == true,
                    "\(accepted)")
            #expect(accepted["status_after"] as? String == "accepted")
            #expect((accepted["note"] as? String)?.hasPrefix("rollout 1 to 20% of people: try it on a few") == true, "\(accepted)")
            #expect(accepted["console_problems"] as? [String] == [], "\(accepted)")
            let rollout = try #require(try RolloutStore().list(on: daemon.schema.connect()).first)
            #expect(rollout.share == 0.2 && rollout.status == .running)

            // Three days of picks since the share was set: 160 people on the current layout, 40 on the
            // rollout (its 20%), the rollout's faster; a few menus closed without a pick on both.
            try daemon.schema.connect().execute(
                "UPDATE rollouts SET share_since = now() - interval '3 days', started_at = now() - interval '3 days'")
            for (arm, people, version, latency) in [("c", 160, rollout.baseMenuVersion, 900), ("r", 40, rollout.menuVersion, 600)] {
                for day in 0..<3 {
                    let events = (0..<(people * 4)).map { i in
                        let common = "\"user\":\"\(arm)-\(i % people)\",\"latency_ms\":\(latency + (i * 37) % 200),"
                            + "\"menu_version\":\"\(version)\""
                        return i % 16 == 5
                            ? Payload.event(time: Payload.now(offsetSeconds: -Double(day) * 86_400 - 3_600 - Double(i)), command: nil,
                                            extra: "\"kind\":\"dismiss\"," + common)
                            : Payload.event(time: Payload.now(offsetSeconds: -Double(day) * 86_400 - 3_600 - Double(i)),
                                            command: i % 4 == 0 ? "archive" : "reply",
                                            extra: "\"position\":\(i % 4 == 0 ? 3 : 0)," + common)
                    }
                    let sent = try daemon.post(Payload.batch(events))
                    try #require(sent.accepted == people * 4, "\(sent.text)")
                }
            }
            let seen = try page(["--flow", "rollout-decide", "--element-type", "mail.message", "--app", "alpha",
                                 "--rollout-share", "40"])
            let view = try #require(seen["rollout"] as? [String: Any], "\(seen)")
            #expect(view["status"] as? String == "running")
            #expect((view["state"] as? String)?.contains("served to 20% of people") == true, "\(view)")
            #expect((view["verdict"] as? String)?.hasPrefix("Verdict: better") == true, "\(view)")
            #expect((view["people"] as? String)?.hasPrefix("160 people on the current layout, 40 on the rollout") == true, "\(view)")
            let metrics = try #require(view["metrics"] as? [[String]])
            #expect(metrics.first?.first == "median selection latency" && metrics.first?[4].contains(" to ") == true, "\(metrics)")
            #expect(seen["column_names"] as? [String] == ["metric", "current", "rollout", "rollout \u{2212} current",
                                                          "95% always-valid interval"], "\(seen)")
            #expect(view["charts"] as? Int == 2, "\(view)")
            // The outcomes of its layouts name the rollout's arm as the rollout's, and the figures say when they were computed.
            let versions = try #require(seen["outcome_versions"] as? [[String]], "\(seen)")
            #expect(versions.filter { $0.first != "-" }.map { Array($0.prefix(3)) }
                == [[rollout.baseMenuVersion, "version 1 (manifest)", "1,920"],
                    [rollout.menuVersion, "rollout #1 (proposal #\(id))", "480"]], "\(versions)")
            #expect(versions.last?.prefix(2) == ["-", "no menu_version sent"], "\(versions)")
            #expect((seen["freshness"] as? String)?.hasPrefix("Figures as of the rollup of ") == true
                && (seen["freshness"] as? String)?.contains("every stored event is counted") == true, "\(seen)")
            #expect((seen["without_note"] as? String) == "Say why first.")
            #expect((seen["widen_confirm"] as? String)?.contains("to 40% of people instead of 20%") == true, "\(seen)")
            #expect((seen["promote_confirm"] as? String)?.contains("Promote rollout #1?") == true, "\(seen)")
            #expect(((seen["widened"] as? [String: Any])?["decisions"] as? String)?.contains("token:dana share 40%: looks faster") == true,
                    "\(seen)")
            #expect((seen["promoted"] as? [String: Any])?["status"] as? String == "promoted", "\(seen)")
            #expect(seen["actions_gone"] as? Bool == true)
            #expect((seen["layout_current"] as? String)?.contains("accepted proposal #\(id)") == true, "\(seen)")
            #expect(seen["phone_overflow"] as? Int == 0, "\(seen)")
            #expect(seen["console_problems"] as? [String] == [], "\(seen)")
            // Decided through the admin API with the token's name, and served to everyone.
            let decisions = try RolloutStore().decisions(id: rollout.id, on: daemon.schema.connect())
            #expect(decisions.map(\.action.rawValue) == ["start", "share", "promote"], "\(decisions)")
            #expect(decisions.allSatisfy { $0.decidedBy == "token:dana" })
            let served = try daemon.get("/v1/menus/mail.message", key: daemon.alpha.readKey)
            #expect(served.text.contains("\"menu_version\":\"\(rollout.menuVersion)\"") && !served.text.contains("\"rollout\""),
                    "\(served.text)")
        }
    }
}
