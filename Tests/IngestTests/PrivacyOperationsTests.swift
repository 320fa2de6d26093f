import Foundation
import HTTP
import Locking
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
            let today = PartitionManager.today().dayNumber
            let firstKept = today - 28
            #expect(try daemon.count("SELECT count(*)::int FROM daily_element_usage WHERE day < DATE '1970-01-01' + \(firstKept)") > 0)
            #expect(try ReviewFixture.menurank(daemon, ["rollup", "--rollup-retention", "7d"]).status == 64)
            // Shorter than the events' retention (90 days unless told): refused, as serve refuses it.
            let short = try ReviewFixture.menurank(daemon, ["rollup", "--rollup-retention", "28d"])
            #expect(short.status == 64, "\(short.standardOutput)")
            #expect(short.standardError.contains("--retention"), "\(short.standardError)")
            let shortEnv = try ReviewFixture.menurank(daemon, ["rollup", "--rollup-retention", "28d"],
                                                      environment: ["MENURANK_RETENTION": "60d"])
            #expect(shortEnv.status == 64)
            let run = try ReviewFixture.menurank(daemon, ["rollup", "--rollup-retention", "28d", "--retention", "28d"])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("dropped"))
            for table in ["daily_element_usage", "daily_command_usage"] {
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE day < DATE '1970-01-01' + \(firstKept)") == 0)
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE day >= DATE '1970-01-01' + \(firstKept)") > 0)
            }
            for table in ["rollup_blocks", "block_element_usage", "block_command_usage"] {
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE (block + 1) * (1 << level) <= \(firstKept)") == 0)
            }
            // The dropped days' events are still here (put in by hand, past any retention): their
            // days queued again (as users forget or a late event queues them) are not rolled up again.
            try daemon.schema.connect().execute("INSERT INTO rollup_queue (app_id, day) SELECT DISTINCT app_id, day FROM events")
            let again = try ReviewFixture.menurank(daemon, ["rollup"])
            #expect(again.status == 0, "\(again.standardError)")
            for table in ["daily_element_usage", "daily_command_usage", "segment_element_usage", "daily_outcomes"] {
                #expect(try daemon.count("SELECT count(*)::int FROM \(table) WHERE day < DATE '1970-01-01' + \(firstKept)") == 0,
                        "\(table) holds a day the rollup retention dropped")
            }
            #expect(try daemon.count("SELECT count(*)::int FROM rollup_queue") == 0)
        }
    }

    /// A retry of a batch acknowledged before `users forget` finds tombstones: duplicates, and the
    /// person stays out of the events and of every rollup, sketches included.
    @Test func aRetriedBatchDoesNotBringAForgottenPersonBack() throws {
        try Daemon.with(prefix: "forgetretry") { daemon in
            let person = Self.events(user: "gone@example.com", count: 6, daysAgo: 1)
                + Self.events(user: "gone@example.com", count: 4, daysAgo: 2, command: "forward")
            let other = Self.events(user: "stays", count: 3, daysAgo: 1)
            let batch = Payload.batch(person + other)
            #expect(try daemon.post(batch).accepted == 13)
            #expect(try ReviewFixture.menurank(daemon, ["rollup"]).status == 0)
            let forgot = try ReviewFixture.menurank(daemon, ["users", "forget", "--app", "alpha", "gone@example.com"])
            #expect(forgot.status == 0, "\(forgot.standardError)")
            #expect(try daemon.count("SELECT count(*)::int FROM events") == 3)

            // The client never got the answer and sends the same batch again.
            let retry = try daemon.post(batch)
            #expect(retry.status == 200, "\(retry.text)")
            #expect(retry.accepted == 0, "\(retry.text)")
            #expect(retry.duplicates == 13, "\(retry.text)")
            // The erased events' own batch alone: the same.
            let alone = try daemon.post(Payload.batch(person))
            #expect(alone.accepted == 0 && alone.duplicates == 10, "\(alone.text)")
            // New events of the same days still go in beside the tombstones.
            let fresh = try daemon.post(Payload.batch(Self.events(user: "new", count: 2, daysAgo: 1)))
            #expect(fresh.accepted == 2, "\(fresh.text)")
            #expect(try daemon.count("SELECT count(*)::int FROM events") == 5)

            #expect(try ReviewFixture.menurank(daemon, ["rollup"]).status == 0)
            #expect(try daemon.count("SELECT sum(selections)::int FROM daily_command_usage") == 5)
            #expect(try daemon.count("SELECT round(sum(hll_cardinality(users)))::int FROM daily_element_usage") == 2)
            // The person's own rows (the forward command, two days ago) are gone, not zeroed.
            #expect(try daemon.count("""
                SELECT count(*)::int FROM daily_command_usage d JOIN commands c USING (app_id, command_id)
                WHERE c.name = 'forward'
                """) == 0)
            #expect(try daemon.count("SELECT count(*)::int FROM segment_command_usage WHERE selections = 0") == 0)
            // Tombstones hold the keys only, nothing else of the person.
            #expect(try daemon.count("SELECT count(*)::int FROM forgotten_events") == 10)
        }
    }

    /// `apps delete` while the app's clients keep sending, with key grants cached for longer than
    /// the test: once the command returns, no event of the app is acknowledged and none is left,
    /// GET /v1/menus refuses the app's read key, and a rollup leaves nothing of it. The other
    /// app, sending all along, loses nothing.
    @Test func deletingAnAppWhileItsClientsSendIsFinalAtOnce() throws {
        try Daemon.with(prefix: "appdelrace", configure: { $0.keyCacheTTL = .seconds(600) }) { daemon in
            let alphaID = daemon.alpha.app.appID
            #expect(try daemon.get("/v1/menus", key: daemon.alpha.readKey).status == 200)
            let returned = Locked<Date?>(nil)
            let stop = Locked(false)
            let lateAcknowledged = Locked(0)
            let betaAcknowledged = Locked(0)
            let failures = Locked<[String]>([])
            let finished = DispatchGroup()
            for index in 0..<6 {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    let client = daemon.client()
                    let beta = index % 3 == 2
                    while !stop.withLock({ $0 }) {
                        let sentAt = Date()
                        guard let reply = try? daemon.post(Payload.batch(Payload.events(20)),
                                                           key: beta ? daemon.beta.writeKey : nil, client: client)
                        else { continue }
                        if beta {
                            if reply.status == 200 {
                                betaAcknowledged.withLock { $0 += reply.accepted }
                            } else {
                                failures.withLock { $0.append("beta: \(reply.status) \(reply.text)") }
                            }
                        } else if let done = returned.withLock({ $0 }), sentAt > done {
                            if reply.status == 200 {
                                lateAcknowledged.withLock { $0 += max(0, reply.accepted) }
                            } else if reply.status != 401 {
                                failures.withLock { $0.append("alpha: \(reply.status) \(reply.text)") }
                            }
                        }
                    }
                }.start()
            }
            Thread.sleep(forTimeInterval: 1.5)
            #expect(try daemon.count("SELECT count(*)::int FROM events WHERE app_id = \(alphaID)") > 0)
            let deleted = try ReviewFixture.menurank(daemon, ["apps", "delete", "alpha", "--confirm", "alpha"])
            returned.withLock { $0 = Date() }
            #expect(deleted.status == 0, "\(deleted.standardError)")
            let menus = try daemon.get("/v1/menus", key: daemon.alpha.readKey)
            #expect(menus.status == 401, "\(menus.text)")
            Thread.sleep(forTimeInterval: 1.5)
            stop.withLock { $0 = true }
            finished.wait()

            #expect(lateAcknowledged.withLock { $0 } == 0, "events acknowledged after apps delete returned")
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
            #expect(try ReviewFixture.menurank(daemon, ["rollup"]).status == 0)
            let connection = try daemon.schema.connect()
            let tables = try connection.query("""
                SELECT DISTINCT table_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name = 'app_id'
                """).map { try $0.decode(String.self, at: 0) }
            for table in tables {
                let left = try connection.query("SELECT count(*)::int FROM \(identifier: table) WHERE app_id = \(alphaID)")[0]
                    .decode(Int.self, at: 0)
                #expect(left == 0, "\(table) still holds \(left) rows of the deleted app")
            }
            let betaStored = try daemon.count("SELECT count(*)::int FROM events WHERE app_id = \(daemon.beta.app.appID)")
            #expect(betaStored == betaAcknowledged.withLock { $0 } && betaStored > 0)
        }
    }
}
