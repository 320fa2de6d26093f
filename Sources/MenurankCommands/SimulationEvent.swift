/// One synthetic selection or dismissal. Names are kept as indexes into the generator's tables and
/// turned into text only by the encoder.
struct SimulationEvent: Sendable, Equatable {
    var id: SimulationUUID
    var timeMillis: Int64
    /// Index into the profile's element types.
    var elementType: Int
    /// Index into the element type's menu items, nil for a dismissal.
    var item: Int?
    var latencyMs: Int
    /// Index of the user (0..<users).
    var user: Int
    var session: UInt64
    /// Index into `SimulationContext.triggers`.
    var trigger: Int

    var isDismissal: Bool { item == nil }
}

/// One request's worth of events and the context they share (app version, platform, locale).
struct SimulationBatch: Sendable, Equatable {
    var index: Int
    /// Index into `SimulationContext.all`.
    var context: Int
    var events: [SimulationEvent]
}
