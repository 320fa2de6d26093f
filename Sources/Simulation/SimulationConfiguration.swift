public import CivilTime

/// The knobs of the synthetic telemetry. Same configuration, same events, byte for byte.
public struct SimulationConfiguration: Sendable, Equatable {
    /// Seeds every random choice: popularity, users, times, ids.
    public var seed: UInt64 = 1
    /// How many events in all.
    public var events: Int = 10_000
    /// Events per batch (one POST /v1/events body).
    public var batchSize: Int = 500
    /// Distinct users; a few heavy users make most of the traffic.
    public var users: Int = 2_000
    /// Event times are spread over this many past days (today included).
    public var days: Int = 28
    /// The time the simulation treats as now (no event is later).
    public var now = UTCTimestamp(microsecondsSince1970: 0)
    /// Zipf exponent of command popularity within an element type.
    public var zipfExponent: Double = 1.1
    /// How long a pick takes: grows with the position scanned.
    public var latency = SimulationLatencyModel()

    public init() {}

    /// `now` in the milliseconds the generator draws times and seeds from (the wire's unit).
    var nowMillis: Int64 { now.microsecondsSince1970 / 1000 }

    public var batchCount: Int { events <= 0 ? 0 : (events + batchSize - 1) / batchSize }

    public func eventCount(ofBatch index: Int) -> Int {
        min(batchSize, events - index * batchSize)
    }
}
