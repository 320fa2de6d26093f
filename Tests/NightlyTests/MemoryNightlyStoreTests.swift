import CivilTime
import Menus
@testable import Nightly
import Ranking
import Testing

/// The in-memory store of `recommend --manifest --events`: its days counted by the rollups' own
/// counting (`Rollups.DayTally`) and its window read as the rollups' window is read (sums on the
/// last day, reach from the union of the days' sketches).
/// Day `number` (days since 1970-01-01).
private func day(_ number: Int) -> CivilDate { CivilDate(dayNumber: number) }

@Suite struct MemoryNightlyStoreTests {
    static let manifest = Manifest(app: "mail", version: "1", commands: ["a": CommandInfo(title: "A")],
                                   menus: ["t": ElementMenu(layout: Layout(groups: [[.command("a")]]))])

    @Test func userDaysCountEachPersonOnceADayAndEventsWithoutAUserAsOnePersonEach() throws {
        let store = MemoryNightlyStore(manifest: Self.manifest)
        // Day 10: u1 picks a three times, u2 once, two events without a user: 4 people.
        for (index, user) in ["u1", "u1", "u1", "u2", nil, nil].enumerated() {
            store.add(id: "e\(index)", day: day(10), elementType: "t", command: "a", user: user)
        }
        // Day 11: u1 again (another user-day), and a dismissal by u3.
        store.add(id: "e10", day: day(11), elementType: "t", command: "a", user: "u1")
        store.add(id: "e11", day: day(11), elementType: "t", command: nil, user: "u3")
        // A repeated event (same id and day) counts once; outside the window it does not count.
        store.add(id: "e10", day: day(11), elementType: "t", command: "a", user: "u1")
        store.add(id: "old", day: day(1), elementType: "t", command: "b", user: "u9")
        #expect(store.count == 9 && store.duplicates == 1)

        // With a half-life the days come one by one (each has its weight).
        let daily = store.activities(in: RankingWindow(asOf: day(11), length: 7, halfLife: 7))
        let days = try #require(daily.first).days
        #expect(days.map { CommandDay(day: $0.day, command: $0.command, selections: $0.selections, userDays: $0.userDays) }
            == [CommandDay(day: day(10), command: "a", selections: 6, userDays: 4),
                CommandDay(day: day(11), command: "a", selections: 1, userDays: 1)])
        // The split by person bucket: each person in the bucket of their id (an event without a
        // user by its id: here not a UUID, so by its text).
        var split = PeopleCounts.zero
        for (person, picks) in [("u1", 3.0), ("u2", 1), ("e4", 1), ("e5", 1)] {
            split.selections[PersonBucket.of(user: person)] += picks
            split.userDays[PersonBucket.of(user: person)] += 1
        }
        #expect(days.first?.people == split)

        // Without, the window's sums on its last day, as the rollups' window reads.
        let window = RankingWindow(asOf: day(11), length: 7)
        let activities = store.activities(in: window)
        #expect(activities.count == 1)
        let activity = activities[0]
        #expect(activity.days.map { CommandDay(day: $0.day, command: $0.command, selections: $0.selections, userDays: $0.userDays) }
            == [CommandDay(day: day(11), command: "a", selections: 7, userDays: 5)])
        split.selections[PersonBucket.of(user: "u1")] += 1
        split.userDays[PersonBucket.of(user: "u1")] += 1
        #expect(activity.days.first?.people == split)
        #expect(activity.commandUsers == ["a": 4])      // u1, u2 and the two events without a user
        #expect(activity.users == 5)                    // and u3, who only dismissed
        #expect(activity.dismissals == [day(11): 1])

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
        let store = MemoryNightlyStore(manifest: Self.manifest)
        store.add(id: "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293", day: day(3), elementType: "t", command: "a", user: nil)
        store.add(id: "0193A4C2-6F1E-7C3A-9D2B-4E5F60718294", day: day(3), elementType: "t", command: "a", user: "ünï")
        let row = store.activities(in: RankingWindow(asOf: day(3), length: 1)).first?.days.first
        var split = PeopleCounts.zero
        split.selections[PersonBucket.of(eventIDHigh: 0x0193_A4C2_6F1E_7C3A, low: 0x9D2B_4E5F_6071_8293)] += 1
        split.userDays[PersonBucket.of(eventIDHigh: 0x0193_A4C2_6F1E_7C3A, low: 0x9D2B_4E5F_6071_8293)] += 1
        split.selections[PersonBucket.of(user: "ünï")] += 1
        split.userDays[PersonBucket.of(user: "ünï")] += 1
        #expect(row?.people == split)
    }

    @Test func decayWeighsUserDaysLikeSelections() {
        let store = MemoryNightlyStore(manifest: Self.manifest)
        store.add(id: "1", day: day(9), elementType: "t", command: "a", user: "u1")
        store.add(id: "2", day: day(9), elementType: "t", command: "a", user: "u1")
        store.add(id: "3", day: day(10), elementType: "t", command: "a", user: "u1")
        let window = RankingWindow(asOf: day(10), length: 28, halfLife: 1)
        let ranked = Ranker(window: window).rank(store.activities(in: window)[0])
        let a = ranked.command("a")
        #expect(a?.userDays == 2)
        #expect(a?.weightedUserDays == 1 + 0.5)
        #expect(a?.weightedSelections == 1 + 2 * 0.5)
    }

    /// Reach over more people than a sketch lists one by one (160) is still counted exactly here
    /// (the database estimates it from its sketches); user-days come from the rollups' counting.
    @Test func reachIsCountedExactly() throws {
        let store = MemoryNightlyStore(manifest: Self.manifest)
        for person in 0..<5_000 {
            store.add(id: "e\(person)", day: day(5), elementType: "t", command: "a", user: "person-\(person)")
            store.add(id: "f\(person)", day: day(6), elementType: "t", command: person % 2 == 0 ? "a" : nil, user: "person-\(person)")
        }
        let activity = try #require(store.activities(in: RankingWindow(asOf: day(6), length: 2)).first)
        #expect(activity.days.first?.userDays == 7_500)
        #expect(activity.commandUsers == ["a": 5_000] && activity.users == 5_000)
        #expect(activity.dismissals == [day(6): 2_500])
    }
}
