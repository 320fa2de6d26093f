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
        #expect(days == [CommandDay(day: 10, command: "a", selections: 6, userDays: 4),
                         CommandDay(day: 11, command: "a", selections: 1, userDays: 1)])
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
