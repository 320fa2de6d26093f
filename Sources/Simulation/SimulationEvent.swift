/// One synthetic selection or dismissal. Names are kept as indexes into the generator's tables and
/// turned into text only by the encoder.
public struct SimulationEvent: Sendable, Equatable {
    public var id: SimulationUUID
    public var timeMillis: Int64
    /// Index into the profile's element types.
    public var elementType: Int
    /// Index into the element type's menu items, nil for a dismissal.
    public var item: Int?
    public var latencyMs: Int
    /// Index of the user (0..<users).
    public var user: Int
    public var session: UInt64
    /// Index into `SimulationContext.triggers`.
    public var trigger: Int
    /// True when the person is in the new arm of the element type's rollout (and was shown its layout).
    public var inRollout: Bool = false

    public var isDismissal: Bool { item == nil }
}

/// One request's worth of events and the context they share (app version, platform, locale).
public struct SimulationBatch: Sendable, Equatable {
    public var index: Int
    /// Index into `SimulationContext.all`.
    public var context: Int
    public var events: [SimulationEvent]
}
