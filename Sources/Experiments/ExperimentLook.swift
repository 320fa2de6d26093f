public import CivilTime

/// What a rollout's comparison measures, each as the difference new minus old.
public enum ExperimentMetric: String, Hashable, Sendable, CaseIterable {
    /// The primary metric: median selection latency (ms).
    case medianLatency = "median_latency_ms"
    case p75Latency = "p75_latency_ms"
    /// The guardrail: dismissals per open (a menu opened and closed without a pick).
    case dismissalRate = "dismissal_rate"
    /// Mean picked position + 1.
    case scanDepth = "scan_depth"
}

/// The verdict of a look.
public enum ExperimentVerdict: String, Hashable, Sendable, CaseIterable {
    /// Median selection latency lower in the new arm and the dismissal rate not higher.
    case better
    /// Median selection latency or the dismissal rate higher in the new arm.
    case worse
    case noDifferenceYet = "no difference yet"
    /// The arms' shares of people differ from the configured share: assignment or logging is broken,
    /// and no difference between the arms can be trusted.
    case sampleRatioMismatch = "sample ratio mismatch"
}

/// One metric at one look: each arm's estimate and the always-valid interval of new minus old.
public struct MetricComparison: Hashable, Sendable {
    public var old: Double
    public var new: Double
    /// Nil until both arms have the minimum data (intervals before that are not trusted, nor kept).
    public var difference: ConfidenceSequence?
    /// The plug-in variance of new minus old at this look (each arm's, clustered by person, summed).
    public var variance: Double

    public init(old: Double, new: Double, difference: ConfidenceSequence?, variance: Double) {
        self.old = old
        self.new = new
        self.difference = difference
        self.variance = variance
    }
}

/// The comparison as it stood at the end of one day: what the nightly run reads, and one point of
/// the review page's chart.
public struct ExperimentLook: Hashable, Sendable {
    /// The day looked at, the last of the days its people come from (UTC).
    public var day: CivilDate
    /// People in each arm so far (people seen in both arms are left out of both, `mixedPeople`).
    public var oldPeople: Int
    public var newPeople: Int
    public var mixedPeople: Int
    /// The share configured, the share observed, and the sample-ratio test's always-valid p-value.
    public var expectedShare: Double
    public var observedShare: Double?
    public var sampleRatioPValue: Double
    public var metrics: [ExperimentMetric: MetricComparison]
    public var verdict: ExperimentVerdict
    /// Why: in plain words.
    public var reason: String

    public init(day: CivilDate, oldPeople: Int, newPeople: Int, mixedPeople: Int, expectedShare: Double, observedShare: Double?,
                sampleRatioPValue: Double, metrics: [ExperimentMetric: MetricComparison], verdict: ExperimentVerdict,
                reason: String)
    {
        self.day = day
        self.oldPeople = oldPeople
        self.newPeople = newPeople
        self.mixedPeople = mixedPeople
        self.expectedShare = expectedShare
        self.observedShare = observedShare
        self.sampleRatioPValue = sampleRatioPValue
        self.metrics = metrics
        self.verdict = verdict
        self.reason = reason
    }

    /// True when a guardrail (the dismissal rate) is significantly worse in the new arm.
    public var guardrailWorse: Bool { metrics[.dismissalRate]?.difference?.isAboveZero ?? false }
}
