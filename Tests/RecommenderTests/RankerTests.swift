import CivilTime
import Foundation
import Ranking
import Testing

/// Day `number` (days since 1970-01-01).
private func day(_ number: Int) -> CivilDate { CivilDate(dayNumber: number) }

@Suite("Ranking over a window")
struct RankerTests {
    /// a: 10 on day 100 and 10 on day 93; b: 20 on day 86; c: only in the previous window.
    let activity = ElementTypeActivity(
        elementType: "mail.message",
        days: [
            CommandDay(day: day(100), command: "a", selections: 10), CommandDay(day: day(93), command: "a", selections: 10),
            CommandDay(day: day(86), command: "b", selections: 20), CommandDay(day: day(70), command: "a", selections: 5),
            CommandDay(day: day(60), command: "c", selections: 8), CommandDay(day: day(101), command: "a", selections: 99),
            CommandDay(day: day(40), command: "b", selections: 1000),
        ],
        dismissals: [day(99): 5, day(50): 3],
        commandUsers: ["a": 4, "b": 2],
        users: 5)

    @Test func windowCountsWithoutDecay() throws {
        let usage = Ranker(window: RankingWindow(asOf: day(100))).rank(activity)
        #expect(usage.window.days == day(73)...day(100))
        #expect(usage.selections == 40)
        #expect(usage.effectiveSampleSize == 40)
        #expect(usage.commands.map(\.command) == ["a", "b", "c"])
        let a = try #require(usage.command("a"))
        #expect(a.selections == 20 && a.weightedSelections == 20 && a.effectiveSelections == 20)
        #expect(a.share == 0.5)
        #expect(a.shareInterval == WilsonInterval(successes: 20, trials: 40))
        #expect(a.users == 4)
        #expect(a.previousSelections == 5)
        #expect(a.trend?.ratio == 4)
        #expect(a.trend?.percentChange == 300)
        let b = try #require(usage.command("b"))
        #expect(b.trend == nil)
        let c = try #require(usage.command("c"))
        #expect(c.selections == 0 && c.share == 0 && c.previousSelections == 8)
        #expect(c.trend == Trend(previous: 8, current: 0))
        #expect(usage.dismissals == 5)
        #expect(usage.opens == 45)
        #expect(usage.dismissalRate == 5.0 / 45.0)
        #expect(usage.users == 5)
        #expect(usage.previousSelections == 13)
    }

    @Test func halfLifeDecayUsesEffectiveSampleSize() throws {
        let usage = Ranker(window: RankingWindow(asOf: day(100), halfLife: 7)).rank(activity)
        // Weights: day 100 -> 1, day 93 -> 0.5, day 86 -> 0.25.
        #expect(abs(usage.weightedSelections - 20) < 1e-12)
        let sumW2: Double = 10 * 1 + 10 * 0.25 + 20 * 0.0625
        let effectiveN: Double = 400 / sumW2
        #expect(abs(usage.effectiveSampleSize - effectiveN) < 1e-9)
        let a = try #require(usage.command("a"))
        #expect(abs(a.weightedSelections - 15) < 1e-12)
        #expect(abs(a.share - 0.75) < 1e-12)
        #expect(abs(a.effectiveSelections - 0.75 * effectiveN) < 1e-9)
        let expected = WilsonInterval(successes: 0.75 * effectiveN, trials: effectiveN)
        #expect(abs(a.shareInterval.lower - expected.lower) < 1e-12)
        #expect(abs(a.shareInterval.upper - expected.upper) < 1e-12)
        // Fewer effective trials than raw selections: a wider interval than the raw counts give.
        let raw = WilsonInterval(successes: 30, trials: 40)
        let width: Double = a.shareInterval.upper - a.shareInterval.lower
        #expect(width > raw.upper - raw.lower)
        // Trends stay on raw counts.
        #expect(a.trend == Trend(previous: 5, current: 20))
        #expect(usage.selections == 40)
    }

    @Test func emptyActivity() {
        let usage = Ranker(window: RankingWindow(asOf: day(10), length: 7)).rank(
            ElementTypeActivity(elementType: "x", days: []))
        #expect(usage.commands.isEmpty)
        #expect(usage.selections == 0 && usage.opens == 0)
        #expect(usage.dismissalRate == nil)
        #expect(usage.trend == nil)
    }

    @Test func orderingIsSelectionsThenId() {
        let usage = Ranker(window: RankingWindow(asOf: day(5), length: 5)).rank(ElementTypeActivity(
            elementType: "x",
            days: [CommandDay(day: day(5), command: "b", selections: 3), CommandDay(day: day(5), command: "a", selections: 3),
                   CommandDay(day: day(4), command: "c", selections: 7), CommandDay(day: day(4), command: "b", selections: 0)]))
        #expect(usage.commands.map(\.command) == ["c", "a", "b"])
    }

    @Test func windowWeights() {
        let window = RankingWindow(asOf: day(100), length: 28, halfLife: 14)
        #expect(window.weight(day: day(100)) == 1)
        #expect(abs(window.weight(day: day(86)) - 0.5) < 1e-15)
        #expect(window.weight(day: day(72)) == 0)
        #expect(window.weight(day: day(101)) == 0)
        #expect(window.previous.days == day(45)...day(72))
        #expect(RankingWindow(asOf: day(3), halfLife: 0).halfLife == nil)
    }
}
