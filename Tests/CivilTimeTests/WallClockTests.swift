import CivilTime
import Foundation
import Testing

@Suite("WallClock")
struct WallClockTests {
    @Test("a fixed clock answers its instant every time")
    func fixed() {
        let instant = UTCTimestamp(microsecondsSince1970: 1_796_032_800_123_456)
        let clock = WallClock.fixed(instant)
        #expect(clock.now() == instant)
        #expect(clock.now() == instant)
    }

    @Test("the system clock reads the same time of day as Foundation's, to the microsecond's scale")
    func systemAgreesWithFoundation() {
        let before = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down))
        let now = WallClock.system.now().microsecondsSince1970
        let after = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.up))
        // Both read CLOCK_REALTIME: ours lies between two Foundation readings around it (a
        // microsecond of slack for Foundation's floating point).
        #expect(before - 1 <= now && now <= after + 1)
    }
}
