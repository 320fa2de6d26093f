import Foundation
import HTTP
import Postgres
import Storage
import TestSupport
import Testing

/// `users forget`, `apps delete` and rollup retention with the real binary, on events that went
/// through the real daemon (so the user id is hashed exactly as ingestion hashes it).
@Suite(TestDatabase.enabled) struct PrivacyOperationsTests {
    static func events(user: String, count: Int, daysAgo: Int, command: String = "reply") -> [String] {
        (0..<count).map { index in
            Payload.event(time: Payload.now(offsetSeconds: -Double(daysAgo) * 86_400 - Double(index)), command: command,
                          extra: "\"user\":\"\(user)\"")
        }
    }

    @Test func forgettingAUserDeletesTheirEventsAndRebuildsTheirDays() throws {
        try Daemon.with(prefix: "forget") { daemon in
            let batch = Self.events(user: "person-1@example.com", count: 5, daysAgo: 1)
                + Self.events(user: "person-1@example.com", count: 3, daysAgo: 3, command: "forward")
                + Self.events(user: "person-2", count: 4, daysAgo: 1)
                + Self.events(user: "person-3", count: 2, daysAgo: 3, command: "forward")
            let reply = try daemon.post(Payload.batch(batch))
            #expect(reply.accepted == 14, "\(reply.text)")
            #expect(try ReviewFixture.menurank(daemon, ["rollup"]).status == 0)
            #expect(try daemon.count("SELECT sum(selections)::int FROM daily_command_usage") == 14)

            let forgot = try ReviewFixture.menurank(daemon, ["users", "forget", "--app", "alpha", "person-1@example.com",
                                                             "--format", "json"])
            #expect(forgot.status == 0, "\(forgot.standardError)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(forgot.standardOutput.utf8)) as? [String: Any])
            #expect(result["events_deleted"] as? Int == 8)
            #expect((result["days_recomputed"] as? [String])?.count == 2)
            #expect(try daemon.count("SELECT count(*)::int FROM events") == 6)
            // The rollups count what remains, and their sketches hold only the remaining people.
            #expect(try daemon.count("SELECT sum(selections)::int FROM daily_command_usage") == 6)
            #expect(try daemon.count("SELECT sum(selections)::int FROM daily_element_usage") == 6)
            #expect(try daemon.count("SELECT round(sum(hll_cardinality(users)))::int FROM daily_element_usage") == 2)
            // Nothing queued is left behind, and a second run finds nothing.
            #expect(try daemon.count("SELECT count(*)::int FROM rollup_queue") == 0)
            let again = try ReviewFixture.menurank(daemon, ["users", "forget", "--app", "alpha", "person-1@example.com"])
            #expect(again.status == 0)
            #expect(again.standardOutput.contains("no stored events"))
            // Another app's person with the same id is another pseudonym: untouched.
            #expect(try ReviewFixture.menurank(daemon, ["users", "forget", "--app", "nobody", "x"]).status == 1)
            #expect(try ReviewFixture.menurank(daemon, ["users", "forget", "--app", "alpha", ""]).status == 64)
        }
    }

    @Test func deletingAnAppRemovesEveryRowItOwnsAndNothingElse() throws {
        try Daemon.with(prefix: "appdelete") { daemon in
            _ = try ReviewFixture.pendingProposal(daemon)  // alpha: manifest, layouts, events, rollups, a proposal
            #expect(try daemon.post(Payload.batch(Self.events(user: "b", count: 3, daysAgo: 1)),
                                    key: daemon.beta.writeKey).accepted == 3)
            #expect(try ReviewFixture.menurank(daemon, ["rollup"]).status == 0)
            _ = try TokenStore(pool: daemon.pool).create(name: "alpha-reviewer", appName: "alpha")
            let alphaID = daemon.alpha.app.appID

            #expect(try ReviewFixture.menurank(daemon, ["apps", "delete", "alpha"]).status == 64)  // no terminal, no --confirm
            #expect(try ReviewFixture.menurank(daemon, ["apps", "delete", "alpha", "--confirm", "beta"]).status == 64)
            #expect(try daemon.count("SELECT count(*)::int FROM events WHERE app_id = \(alphaID)") > 0)

            let deleted = try ReviewFixture.menurank(daemon, ["apps", "delete", "alpha", "--confirm", "alpha"])
            #expect(deleted.status == 0, "\(deleted.standardError)")
            #expect(deleted.standardOutput.contains("deleted app alpha"))
            let connection = try daemon.schema.connect()
            let tables = try connection.query("""
                SELECT table_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name = 'app_id'
                """).map { try $0.decode(String.self, at: 0) }
            #expect(tables.count > 15, "\(tables)")
            for table in tables {
                let left = try connection.query("SELECT count(*)::int FROM \(identifier: table) WHERE app_id = \(alphaID)")[0]
                    .decode(Int.self, at: 0)
                #expect(left == 0, "\(table) still holds \(left) rows of the deleted app")
            }
            #expect(try daemon.count("SELECT count(*)::int FROM events WHERE app_id = \(daemon.beta.app.appID)") == 3)
            #expect(try daemon.count("SELECT count(*)::int FROM admin_tokens") == 0)
            #expect(try daemon.post(Payload.batch([Payload.event()])).status == 401)
            #expect(try ReviewFixture.menurank(daemon, ["apps", "delete", "alpha", "--confirm", "alpha"]).status == 1)
        }
    }

    @Test func rollupRetentionDropsOldDaysAndBlocks() throws {
        try Daemon.with(prefix: "rollupret") { daemon in
            try ReviewFixture.insertEvents(app: daemon.alpha.app.appID, on: daemon.schema.connect())
            #expect(try ReviewFixture.menurank(daemon, ["rollup"]).status == 0)
            let today = Int(PartitionManager.today())
            let firstKept = today - 28
            #expect(try daemon.count("SELECT count(*)::int FROM daily_element_usage WHERE day < DATE '1970-01-01' + \(firstKept)") > 0)
            #expect(try ReviewFixture.menurank(daemon, ["rollup", "--rollup-retention", "7d"]).status == 64)
            let run = try ReviewFixture.menurank(daemon, ["rollup", "--rollup-retention", "28d"])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("dropped"))
            for table in ["daily_element_usage", "daily_command_usage"] {
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE day < DATE '1970-01-01' + \(firstKept)") == 0)
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE day >= DATE '1970-01-01' + \(firstKept)") > 0)
            }
            for table in ["rollup_blocks", "block_element_usage", "block_command_usage"] {
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE (block + 1) * (1 << level) <= \(firstKept)") == 0)
            }
        }
    }
}
