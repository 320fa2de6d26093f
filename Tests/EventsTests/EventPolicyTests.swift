import CivilTime
import Events
import Testing

@Suite("EventPolicy")
struct EventPolicyTests {
    static let second: Int64 = 1_000_000
    static let minute = 60 * second
    static let hour = 60 * minute
    static let day = 24 * hour
    let received = RFC3339.parse("2026-11-29T10:00:05.120Z")!

    func batch(times: [Int64], sentAt: Int64?) -> EventBatch {
        let events = times.enumerated().map { i, t in
            IncomingEvent(index: i, id: EventID(high: 1, low: UInt64(i)), time: t, elementType: "e", command: "c")
        }
        return EventBatch(sentAt: sentAt, events: events, totalCount: times.count)
    }

    @Test func aClockTwoHoursBehindIsCorrected() {
        let sentAt = received - 2 * Self.hour
        let input = batch(times: [sentAt - 7 * Self.second, sentAt - Self.minute], sentAt: sentAt)
        let out = EventPolicy().apply(to: input, receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.clockShift == 2 * Self.hour)
        #expect(out.events.map(\.time) == [received - 7 * Self.second, received - Self.minute])
        #expect(out.rejections.isEmpty)
    }

    @Test func aClockAheadIsCorrectedToo() {
        // 20 hours ahead: the event's own day is the server's next day, which is accepted.
        let sentAt = received + 20 * Self.hour
        let out = EventPolicy().apply(to: batch(times: [sentAt - Self.second], sentAt: sentAt), receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.clockShift == -20 * Self.hour)
        #expect(out.events.first?.time == received - Self.second)
        #expect(out.events.first?.partitionDayNumber == RFC3339.dayNumber(of: received) + 1)
    }

    @Test func skewWithinTheThresholdChangesNothing() {
        for skew in [0, 30 * Self.second, -59 * Self.second, 60 * Self.second] {
            let sentAt = received - skew
            let input = batch(times: [sentAt - Self.second], sentAt: sentAt)
            let out = EventPolicy().apply(to: input, receivedAt: UTCTimestamp(microsecondsSince1970: received))
            #expect(out.clockShift == 0, "skew \(skew)")
            #expect(out.events == input.events)
        }
        let justOver = EventPolicy().clockShift(sentAt: received - 61 * Self.second, receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(justOver == 61 * Self.second)
    }

    @Test func withoutSentAtTimesAreKept() {
        let input = batch(times: [received - Self.hour], sentAt: nil)
        #expect(EventPolicy().apply(to: input, receivedAt: UTCTimestamp(microsecondsSince1970: received)).events == input.events)
    }

    @Test func futureAndTooOldEventsAreRefusedOneByOne() {
        let times = [
            received + 4 * Self.minute,  // ok
            received + 6 * Self.minute,  // future
            received - 89 * Self.day,  // ok
            received - 91 * Self.day,  // too old
            received,  // ok
        ]
        let out = EventPolicy().apply(to: batch(times: times, sentAt: nil), receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.events.map(\.index) == [0, 2, 4])
        #expect(out.rejections.map(\.index) == [1, 3])
        #expect(out.rejections.map(\.code) == [.timeInFuture, .timeTooOld])
        #expect(out.rejections[0].message.contains("more than 5 minutes after the server time 2026-11-29T10:00:05.120Z"))
        #expect(out.rejections[1].message.contains("older than the retention of 90 days"))
        #expect(out.rejections[0].id == EventID(high: 1, low: 1).description)
    }

    @Test func theWindowIsCheckedAfterCorrection() {
        // The device clock is 30 days behind: the time window applies to the corrected times.
        let sentAt = received - 30 * Self.day
        let out = EventPolicy().apply(to: batch(times: [sentAt - Self.minute, sentAt + 10 * Self.minute], sentAt: sentAt),
                                      receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.events.map(\.index) == [0])
        #expect(out.rejections.map(\.code) == [.timeInFuture])
        #expect(out.rejections[0].message.contains("after clock-skew correction"))
    }

    @Test func decoderAndPolicyRejectionsMergeInOrder() throws {
        let sentAt = "2026-11-29T10:00:05.120Z"
        let events = [
            SampleBodies.event(["time": #""2026-11-29T10:30:00Z""#], id: SampleBodies.uuid(0)),
            SampleBodies.event(["kind": #""oops""#], id: SampleBodies.uuid(1)),
            SampleBodies.event(id: SampleBodies.uuid(2)),
            SampleBodies.event(["time": #""2020-01-01T00:00:00Z""#], id: SampleBodies.uuid(3)),
            "7",
        ]
        let decoded = try EventBatchDecoder().decode(Array(SampleBodies.batch(events, sentAt: sentAt).utf8))
        let out = EventPolicy().apply(to: decoded, receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.rejections.map(\.index) == [0, 1, 3, 4])
        #expect(out.rejections.map(\.code) == [.timeInFuture, .invalidKind, .timeTooOld, .invalidEvent])
        #expect(out.events.map(\.index) == [2])
        #expect(out.totalCount == 5)
    }

    @Test func configurableWindow() {
        let policy = EventPolicy(skewThreshold: 10 * Self.second, maxFuture: 0, retention: nil)
        let out = policy.apply(to: batch(times: [received - 3000 * Self.day, received + 1], sentAt: received - 11 * Self.second),
                               receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(out.clockShift == 11 * Self.second)
        #expect(out.events.map(\.index) == [0])
        #expect(out.rejections.map(\.code) == [.timeInFuture])
        let plain = policy.apply(to: [IncomingEvent(id: EventID(high: 0, low: 0), time: 0, elementType: "e", command: "c")],
                                 receivedAt: UTCTimestamp(microsecondsSince1970: received))
        #expect(plain.accepted.count == 1 && plain.rejected.isEmpty)
    }

    @Test func dayFollowsTheCorrectedTime() {
        // 23:59 on the client, but its clock is 2 hours behind: the event belongs to the next day.
        let late = RFC3339.parse("2026-11-29T23:59:00Z")!
        let receivedNextDay = late + 2 * Self.hour + Self.minute
        let out = EventPolicy().apply(to: batch(times: [late], sentAt: late + Self.minute), receivedAt: UTCTimestamp(microsecondsSince1970: receivedNextDay))
        #expect(out.events.first?.day.description == "2026-11-30")
    }
}
