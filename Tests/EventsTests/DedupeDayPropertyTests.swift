import CivilTime
import Events
import Testing
import TestSupport

/// The dedupe key (app, id, partition day) of an event must be the same on every attempt that
/// accepts it, whatever the device's clock does between attempts (off by any amount, fixed, or
/// `sent_at` left out) and wherever midnight UTC falls; and an accepted event's day must be one
/// that partition maintenance keeps for the whole retention. Checked on generated retries, with
/// counts showing that the generator reached the cases that broke the previous rule.
@Suite("Dedupe day properties")
struct DedupeDayPropertyTests {
    static let second: Int64 = 1_000_000
    static let minute = 60 * second
    static let hour = 60 * minute
    static let day = 24 * hour

    /// Clock offsets of a device (device time minus real time).
    static let offsets: [Int64] = [
        0, 30 * second, -30 * second, 2 * minute, -2 * minute, 3 * hour, -3 * hour, 23 * hour, -23 * hour,
        25 * hour, -25 * hour, 3 * day, -3 * day, 89 * day, -89 * day, -100 * day,
    ]

    struct Attempt {
        var receivedAt: Int64
        var sentAt: Int64?
    }

    @Test func everyAcceptingAttemptGivesTheSameDayAndAKeptDay() {
        var rng = SplitMix64(seed: 0x5eed_d0d0)
        let policy = EventPolicy()
        let window = policy.window!
        let base = RFC3339.parse("2026-11-29T00:00:00Z")!
        var bothAccepted = 0
        var correctedDaysDiffered = 0
        var withoutSentAt = 0
        var clockFixed = 0
        var nearMidnight = 0
        var refused = 0
        for case_ in 0..<20_000 {
            // The real moment of the event, often within minutes of a midnight UTC.
            let midnight = base + Int64(rng.next(upTo: 6)) * Self.day
            let real = case_ % 2 == 0
                ? midnight + Int64(rng.next(upTo: 20)) * Self.minute - 10 * Self.minute
                : midnight + Int64(rng.next(upTo: UInt64(Self.day))) - Self.day / 2
            // The device stamps it with its clock, then sends it (perhaps much later) and retries.
            let stampOffset = pick(&rng)
            let time = real + stampOffset
            let firstDelay = Int64(rng.next(upTo: 3)) == 0 ? Int64(rng.next(upTo: UInt64(2 * Self.day))) : Int64(rng.next(upTo: UInt64(10 * Self.minute)))
            let first = attempt(at: real + firstDelay, offset: rng.next(upTo: 4) == 0 ? nil : stampOffset)
            let secondOffset: Int64?
            switch rng.next(upTo: 4) {
            case 0: secondOffset = nil  // sent_at left out
            case 1: secondOffset = 0  // the clock was fixed
            case 2: secondOffset = first.sentAt == nil ? stampOffset : first.sentAt! - first.receivedAt
            default: secondOffset = pick(&rng)
            }
            let second = attempt(at: first.receivedAt + Int64(rng.next(upTo: UInt64(6 * Self.hour))), offset: secondOffset)
            let event = IncomingEvent(id: EventID(high: 7, low: UInt64(case_)), time: time, elementType: "e", command: "c")

            var accepted: [IncomingEvent] = []
            for attempt in [first, second] {
                let out = policy.apply(to: EventBatch(sentAt: attempt.sentAt, events: [event], totalCount: 1),
                                       receivedAt: UTCTimestamp(microsecondsSince1970: attempt.receivedAt))
                guard let stored = out.events.first else {
                    refused += 1
                    continue
                }
                // Accepted: its day is inside the window that maintenance keeps on the receive day,
                // so it is kept until the day itself is older than the retention.
                let today = RFC3339.dayNumber(of: attempt.receivedAt)
                #expect(window.contains(day: stored.partitionDayNumber, today: today),
                        "case \(case_): day \(stored.partitionDayNumber) outside the window of \(today)")
                #expect(stored.partitionDayNumber == RFC3339.dayNumber(of: time), "case \(case_)")
                accepted.append(stored)
            }
            if accepted.count == 2 {
                bothAccepted += 1
                #expect(accepted[0].partitionDayNumber == accepted[1].partitionDayNumber, "case \(case_)")
                if accepted[0].dayNumber != accepted[1].dayNumber { correctedDaysDiffered += 1 }
                if first.sentAt == nil || second.sentAt == nil { withoutSentAt += 1 }
                if secondOffset == 0 && first.sentAt != nil && first.sentAt != first.receivedAt { clockFixed += 1 }
                if abs(real - midnight) < 10 * Self.minute { nearMidnight += 1 }
            }
        }
        // The generator reached the interesting cases: retries whose corrected times fall on
        // different days (what a day taken from the corrected time got wrong), without sent_at,
        // after the clock was fixed, near midnight, and refusals.
        #expect(bothAccepted > 5_000)
        #expect(correctedDaysDiffered > 200, "\(correctedDaysDiffered)")
        #expect(withoutSentAt > 1_000)
        #expect(clockFixed > 500)
        #expect(nearMidnight > 1_000)
        #expect(refused > 1_000)
    }

    /// A device clock more than a day off gets its events refused up front (never re-dayed): a
    /// retry with the clock fixed could otherwise be stored under another day.
    @Test func aClockOffByDaysIsRefusedNotRedayed() {
        let received = RFC3339.parse("2026-11-29T10:00:00Z")!
        for (offset, code) in [(-100 * Self.day, RejectionCode.timeTooOld), (3 * Self.day, .timeInFuture)] {
            let time = received + offset - Self.minute
            let event = IncomingEvent(id: EventID(high: 1, low: 1), time: time, elementType: "e", command: "c")
            let out = EventPolicy().apply(to: EventBatch(sentAt: received + offset, events: [event], totalCount: 1),
                                          receivedAt: UTCTimestamp(microsecondsSince1970: received))
            #expect(out.events.isEmpty)
            #expect(out.rejections.map(\.code) == [code])
            #expect(out.rejections.first?.message.contains("clock") == true)
        }
    }

    /// At the retention edge: an event whose corrected time is inside the retention but whose own
    /// day is before the first kept day (a clock hours behind) is refused, not accepted into a day
    /// that the next maintenance drops.
    @Test func theRetentionEdgeUsesTheWindowMaintenanceUses() {
        let received = RFC3339.parse("2026-11-29T10:00:00Z")!
        let window = EventPolicy().window!
        let today = RFC3339.dayNumber(of: received)
        let firstKept = Int64(window.firstDay(today: today)) * Self.day
        // Corrected: 00:30 on the first kept day. As sent: 21:30 the day before (clock 3 h behind).
        let time = firstKept + 30 * Self.minute - 3 * Self.hour
        let event = IncomingEvent(id: EventID(high: 1, low: 2), time: time, elementType: "e", command: "c")
        let out = EventPolicy().apply(to: EventBatch(sentAt: received - 3 * Self.hour, events: [event], totalCount: 1),
                                      receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.events.isEmpty)
        #expect(out.rejections.map(\.code) == [.timeTooOld])
        // Sent with a right clock, a moment of the first kept day inside the retention is kept there.
        let right = IncomingEvent(id: EventID(high: 1, low: 3), time: firstKept + 11 * Self.hour, elementType: "e", command: "c")
        let kept = EventPolicy().apply(to: EventBatch(sentAt: received, events: [right], totalCount: 1), receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(kept.events.first?.partitionDayNumber == window.firstDay(today: today))
    }

    private func attempt(at receivedAt: Int64, offset: Int64?) -> Attempt {
        Attempt(receivedAt: receivedAt, sentAt: offset.map { receivedAt + $0 })
    }

    private func pick(_ rng: inout SplitMix64) -> Int64 {
        rng.next(upTo: 3) == 0
            ? Int64(rng.next(upTo: UInt64(10 * Self.day))) - 5 * Self.day
            : Self.offsets[Int(rng.next(upTo: UInt64(Self.offsets.count)))]
    }
}
