import CivilTime
import Experiments
import Foundation
import Outcomes
import Postgres
import Storage
import Testing
import TestSupport

/// What a rollout's comparison reads: per person, day and arm, the events of its element type with
/// either arm's menu version, since its share was set; test events and other versions left out.
@Suite(TestDatabase.enabled) struct RolloutQueryTests {
    @Test func observationsArePerPersonDayAndArm() throws {
        try ProposalStoreTests.withImported { conn, app in
            let proposal = try RolloutStoreTests.filed(conn, app: app)
            var rollout = try RolloutStore().start(proposalID: proposal, share: 0.5, note: nil, by: nil, on: conn)
            // Read as if the share had been set two days ago.
            let today = PartitionManager.today().dayNumber
            let yesterday = CivilDate(dayNumber: today - 1).description
            rollout.shareSince = UTCTimestamp(microsecondsSince1970: Int64(today - 2) * UTCTimestamp.microsecondsPerDay)
            let type = try LayoutFixtures.id("mail.message", in: "element_types", app: app, on: conn)
            let other = try LayoutFixtures.id("mail.mailbox", in: "element_types", app: app, on: conn)
            let reply = try LayoutFixtures.id("reply", in: "commands", app: app, on: conn)
            func context(_ version: String, test: Bool = false) throws -> Int32 {
                try LayoutFixtures.context(app: app, isTest: test, menuVersion: version, on: conn)
            }
            let (old, new, test, stray) = (try context("1"), try context(rollout.menuVersion), try context("1", test: true),
                                           try context("0.9"))
            try TestDatabase.ensureEventPartitions(through: yesterday, on: conn)
            func insert(user: Int64?, type: Int32 = type, command: Int32?, context: Int32, position: Int?, latency: Int?) throws {
                try conn.execute("""
                    INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id,
                                        position, latency_ms)
                    VALUES (\(app), \(yesterday)::date, \(yesterday)::date + interval '12 hours', \(user), gen_random_uuid(),
                            \(type), \(command), \(context), \(position.map { Int16($0) }), \(latency.map { Int32($0) }))
                    """)
            }
            try insert(user: 1, command: reply, context: old, position: 0, latency: 700)
            try insert(user: 1, command: reply, context: old, position: 2, latency: 900)
            try insert(user: 1, command: nil, context: old, position: nil, latency: 3000)
            try insert(user: 2, command: reply, context: new, position: 1, latency: nil)
            try insert(user: nil, command: reply, context: new, position: nil, latency: 400)
            try insert(user: nil, command: reply, context: new, position: nil, latency: 500)
            // Left out: test traffic, another menu version, another element type.
            try insert(user: 3, command: reply, context: test, position: 0, latency: 100)
            try insert(user: 3, command: reply, context: stray, position: 0, latency: 100)
            try insert(user: 3, type: other, command: reply, context: old, position: 0, latency: 100)

            let observations = try RolloutQuery().observations(of: rollout, on: conn)
                .sorted { ($0.arm.rawValue, $0.person) < ($1.arm.rawValue, $1.person) }
            #expect(observations.count == 4)
            #expect(observations.allSatisfy { $0.day == CivilDate(dayNumber: today - 1) })
            let first = try #require(observations.first { $0.person == 1 })
            #expect(first.arm == .old && first.tally.opens == 3 && first.tally.dismissals == 1)
            #expect(first.tally.positioned == 2 && first.tally.depthSum == 4)
            #expect(first.tally.latencyBuckets.sorted() == [700, 900].map { UInt16(LatencyHistogram.bucket(of: $0)) })
            let second = try #require(observations.first { $0.person == 2 })
            #expect(second.arm == .new && second.tally.opens == 1 && second.tally.latencyBuckets.isEmpty)
            // Events without a user: a person each.
            #expect(observations.filter { $0.arm == .new }.count == 3)
            // Nothing before the share was set.
            // (Now read from the query's clock, fixed here a minute on.)
            rollout.shareSince = WallClock.system.now()
            let later = UTCTimestamp(microsecondsSince1970: rollout.shareSince.microsecondsSince1970 + 60_000_000)
            #expect(try RolloutQuery(clock: .fixed(later)).observations(of: rollout, on: conn).isEmpty)
        }
    }
}
