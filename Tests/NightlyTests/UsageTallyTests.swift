import Nightly
import Ranking
import Testing

/// The in-memory daily usage of `recommend --manifest --events`: the same aggregates the rollups
/// keep (per day: selections, distinct people; per window: reach).
@Suite struct UsageTallyTests {
    @Test func userDaysCountEachPersonOnceADayAndEventsWithoutAUserAsOnePersonEach() {
        var tally = UsageTally()
        // Day 10: u1 picks a three times, u2 once, two events without a user: 4 people.
        for (index, user) in ["u1", "u1", "u1", "u2", nil, nil].enumerated() {
            tally.add(id: "e\(index)", day: 10, elementType: "t", command: "a", user: user)
        }
        // Day 11: u1 again (another user-day), and a dismissal by u3.
        tally.add(id: "e10", day: 11, elementType: "t", command: "a", user: "u1")
        tally.add(id: "e11", day: 11, elementType: "t", command: nil, user: "u3")
        // A repeated event (same id and day) counts once; outside the window it does not count.
        tally.add(id: "e10", day: 11, elementType: "t", command: "a", user: "u1")
        tally.add(id: "old", day: 1, elementType: "t", command: "b", user: "u9")
        #expect(tally.count == 9 && tally.duplicates == 1)

        let window = RankingWindow(asOf: 11, length: 7)
        let days = tally.days(in: window)["t"] ?? []
        #expect(days.map { CommandDay(day: $0.day, command: $0.command, selections: $0.selections, userDays: $0.userDays) }
            == [CommandDay(day: 10, command: "a", selections: 6, userDays: 4),
                CommandDay(day: 11, command: "a", selections: 1, userDays: 1)])
        // The split by person bucket: each person in the bucket of their id (an event without a
        // user by its id: here not a UUID, so by its text).
        var split = PeopleCounts.zero
        for (person, picks) in [("u1", 3.0), ("u2", 1), ("e4", 1), ("e5", 1)] {
            split.selections[PersonBucket.of(user: person)] += picks
            split.userDays[PersonBucket.of(user: person)] += 1
        }
        #expect(days.first?.people == split)
        let activities = tally.activities(in: window)
        #expect(activities.count == 1)
        let activity = activities[0]
        #expect(activity.commandUsers == ["a": 4])      // u1, u2 and the two events without a user
        #expect(activity.users == 5)                    // and u3, who only dismissed
        #expect(activity.dismissals == [11: 1])

        let ranked = Ranker(window: window).rank(activity)
        let a = ranked.command("a")
        #expect(a?.selections == 7 && a?.userDays == 5 && a?.users == 4)
        #expect(a?.reach.estimate == 0.8)
        #expect((a?.reach.lower ?? 0) < 0.8 && (a?.reach.upper ?? 0) > 0.8)
        #expect(ranked.command("b") == nil)
    }

    /// An event without a user is bucketed by its id's 128 bits, as ingestion stores it, and a
    /// user by the id the app sent.
    @Test func personBucketsAreThoseIngestionStores() {
        var tally = UsageTally()
        tally.add(id: "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293", day: 3, elementType: "t", command: "a", user: nil)
        tally.add(id: "0193A4C2-6F1E-7C3A-9D2B-4E5F60718294", day: 3, elementType: "t", command: "a", user: "ünï")
        let day = tally.days(in: RankingWindow(asOf: 3, length: 1))["t"]?.first
        var split = PeopleCounts.zero
        split.selections[PersonBucket.of(eventIDHigh: 0x0193_A4C2_6F1E_7C3A, low: 0x9D2B_4E5F_6071_8293)] += 1
        split.userDays[PersonBucket.of(eventIDHigh: 0x0193_A4C2_6F1E_7C3A, low: 0x9D2B_4E5F_6071_8293)] += 1
        split.selections[PersonBucket.of(user: "ünï")] += 1
        split.userDays[PersonBucket.of(user: "ünï")] += 1
        #expect(day?.people == split)
    }

    @Test func decayWeighsUserDaysLikeSelections() {
        var tally = UsageTally()
        tally.add(id: "1", day: 9, elementType: "t", command: "a", user: "u1")
        tally.add(id: "2", day: 9, elementType: "t", command: "a", user: "u1")
        tally.add(id: "3", day: 10, elementType: "t", command: "a", user: "u1")
        let window = RankingWindow(asOf: 10, length: 28, halfLife: 1)
        let ranked = Ranker(window: window).rank(tally.activities(in: window)[0])
        let a = ranked.command("a")
        #expect(a?.userDays == 2)
        #expect(a?.weightedUserDays == 1 + 0.5)
        #expect(a?.weightedSelections == 1 + 2 * 0.5)
    }
}
