public import CivilTime

/// What one person did with one element type's menu in one arm, over some days: the unit of the
/// comparison (people, not events, are what a rollout randomizes). Adds up exactly, so days merge.
public struct PersonTally: Hashable, Sendable {
    /// Menu opens: selections plus dismissals.
    public var opens: Int
    public var dismissals: Int
    /// Selections that reported a position, and the sum of their position + 1 (observed scan depth).
    public var positioned: Int
    public var depthSum: Int
    /// The `LatencyHistogram` bucket of every selection that reported a latency, in no order.
    public var latencyBuckets: [UInt16]

    public init(opens: Int = 0, dismissals: Int = 0, positioned: Int = 0, depthSum: Int = 0, latencyBuckets: [UInt16] = []) {
        self.opens = opens
        self.dismissals = dismissals
        self.positioned = positioned
        self.depthSum = depthSum
        self.latencyBuckets = latencyBuckets
    }

    public mutating func merge(_ other: PersonTally) {
        opens += other.opens
        dismissals += other.dismissals
        positioned += other.positioned
        depthSum += other.depthSum
        latencyBuckets.append(contentsOf: other.latencyBuckets)
    }
}

/// One person's tally of one day in one arm: the input of `RolloutExperiment`.
public struct ExperimentObservation: Hashable, Sendable {
    /// The UTC day of the events.
    public var day: CivilDate
    public var arm: ExperimentArm
    /// The person (the stored user hash; an event without one is a person of its own).
    public var person: Int64
    public var tally: PersonTally

    public init(day: CivilDate, arm: ExperimentArm, person: Int64, tally: PersonTally) {
        self.day = day
        self.arm = arm
        self.person = person
        self.tally = tally
    }
}
