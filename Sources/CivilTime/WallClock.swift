#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where "now" comes from: the one way menurank reads the time of day, as a `UTCTimestamp`. Code
/// that stamps or compares with the current time takes a `WallClock` (default `.system`), so a test
/// can hand it a fixed one. Durations and timeouts are measured with the monotonic clocks
/// (`ContinuousClock`), never with this one: the time of day can jump.
public struct WallClock: Sendable {
    private let read: @Sendable () -> UTCTimestamp

    /// A clock that answers `read()`.
    public init(_ read: @escaping @Sendable () -> UTCTimestamp) {
        self.read = read
    }

    /// The current instant by this clock.
    public func now() -> UTCTimestamp { read() }

    /// The system's real-time clock, to the microsecond.
    public static let system = WallClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UTCTimestamp(microsecondsSince1970: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }

    /// A clock that always answers `instant` (tests, and reruns that must see one time).
    public static func fixed(_ instant: UTCTimestamp) -> WallClock {
        WallClock { instant }
    }
}
