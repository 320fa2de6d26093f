import CivilTime
import Foundation

/// The comparison of a rollout's two arms over the same days, looked at once a day: pure, the same
/// observations always give the same looks.
///
/// - Unit: the person. Each person's events are summed per arm (`PersonTally`), cumulatively up to
///   each look, and every variance is over people (`ArmStatistics`): a person's many picks are one
///   draw of that person's habits, and people, not events, are what the device's hash randomizes.
///   People seen in both arms (a second device without the rollout, say) are left out of both and
///   counted.
/// - Intervals: always-valid confidence sequences from the mixture SPRT (`ConfidenceSequence`,
///   Johari et al. 2017/2022) for new minus old of median and 75th-percentile selection latency,
///   dismissal rate and observed scan depth, at level 1 − `alpha`, intersected over the looks from
///   the first one at which both arms have `minimumPeople` people and `minimumSelections` latencies.
/// - Sample ratio: a sequential test of the new arm's share of people against the configured share
///   (`SampleRatioTest`, level `sampleRatioAlpha`), checked at every look; once it fires the verdict is
///   `sample ratio mismatch` for good.
/// - Verdict: `worse` when the median latency or the dismissal rate (the guardrail) is higher in the
///   new arm, `better` when the median latency is lower and the dismissal rate is not higher, else
///   `no difference yet`. The 75th percentile and scan depth are reported, not voted.
public struct RolloutExperiment: Hashable, Sendable {
    public var share: Double
    public var alpha: Double
    public var sampleRatioAlpha: Double
    /// τ of the mixture, as a share of each metric's pooled value (the effect size one expects).
    public var relativeEffect: Double
    public var minimumPeople: Int
    public var minimumSelections: Int

    public init(share: Double, alpha: Double = 0.05, sampleRatioAlpha: Double = 0.001, relativeEffect: Double = 0.1,
                minimumPeople: Int = 30, minimumSelections: Int = 200)
    {
        self.share = share
        self.alpha = alpha
        self.sampleRatioAlpha = sampleRatioAlpha
        self.relativeEffect = relativeEffect
        self.minimumPeople = minimumPeople
        self.minimumSelections = minimumSelections
    }

    /// One look per day that has observations, in day order.
    public func looks(_ observations: [ExperimentObservation]) -> [ExperimentLook] {
        var state = State()
        var looks: [ExperimentLook] = []
        let byDay = Dictionary(grouping: observations, by: \.day)
        for day in byDay.keys.sorted() {
            for observation in byDay[day]! { state.add(observation) }
            looks.append(look(day: day, state: &state))
        }
        return looks
    }

    /// The people so far and what the earlier looks settled.
    struct State {
        var arms: [[Int64: PersonTally]] = [[:], [:]]
        var mixed: Set<Int64> = []
        var sequences: [ExperimentMetric: ConfidenceSequence] = [:]
        var mismatch = false
        var pValue = 1.0

        mutating func add(_ observation: ExperimentObservation) {
            guard !mixed.contains(observation.person) else { return }
            let other = observation.arm == .old ? 1 : 0
            if arms[other].removeValue(forKey: observation.person) != nil {
                mixed.insert(observation.person)
                return
            }
            arms[observation.arm.rawValue][observation.person, default: PersonTally()].merge(observation.tally)
        }
    }

    func look(day: CivilDate, state: inout State) -> ExperimentLook {
        let old = ArmStatistics(tallies: Array(state.arms[0].values))
        let new = ArmStatistics(tallies: Array(state.arms[1].values))
        let people = old.people + new.people
        let test = SampleRatioTest(share: share, alpha: sampleRatioAlpha)
        state.pValue = min(state.pValue, test.pValue(inNew: new.people, of: people))
        if test.mismatch(inNew: new.people, of: people) { state.mismatch = true }
        let selections = (old.tallies.reduce(0) { $0 + $1.latencyBuckets.count },
                          new.tallies.reduce(0) { $0 + $1.latencyBuckets.count })
        let enough = old.people >= minimumPeople && new.people >= minimumPeople
            && selections.0 >= minimumSelections && selections.1 >= minimumSelections

        var metrics: [ExperimentMetric: MetricComparison] = [:]
        for metric in ExperimentMetric.allCases {
            guard let a = estimate(metric, old), let b = estimate(metric, new) else { continue }
            var difference: ConfidenceSequence?
            if enough {
                let pooled = (a.estimate * Double(old.people) + b.estimate * Double(new.people)) / Double(max(people, 1))
                let floor = metric == .dismissalRate ? 0.01 : 1e-9
                let current = ConfidenceSequence.look(estimate: b.estimate - a.estimate, variance: a.variance + b.variance,
                                                      tau: max(relativeEffect * abs(pooled), floor * relativeEffect),
                                                      alpha: alpha)
                difference = current.intersected(with: state.sequences[metric])
                state.sequences[metric] = difference
            }
            metrics[metric] = MetricComparison(old: a.estimate, new: b.estimate, difference: difference,
                                               variance: a.variance + b.variance)
        }

        let observed = people > 0 ? Double(new.people) / Double(people) : nil
        var look = ExperimentLook(day: day, oldPeople: old.people, newPeople: new.people, mixedPeople: state.mixed.count,
                                  expectedShare: share, observedShare: observed, sampleRatioPValue: state.pValue,
                                  metrics: metrics, verdict: .noDifferenceYet, reason: "")
        (look.verdict, look.reason) = verdict(look, mismatch: state.mismatch, enough: enough, selections: selections)
        return look
    }

    private func estimate(_ metric: ExperimentMetric, _ arm: ArmStatistics) -> (estimate: Double, variance: Double)? {
        switch metric {
        case .medianLatency: return arm.quantile(0.5)
        case .p75Latency: return arm.quantile(0.75)
        case .dismissalRate: return arm.ratio({ Double($0.dismissals) }, { Double($0.opens) })
        case .scanDepth: return arm.ratio({ Double($0.depthSum) }, { Double($0.positioned) })
        }
    }

    private func verdict(_ look: ExperimentLook, mismatch: Bool, enough: Bool, selections: (Int, Int))
        -> (ExperimentVerdict, String)
    {
        let percent = { (share: Double) in String(format: "%.1f%%", share * 100) }
        if mismatch {
            return (.sampleRatioMismatch, "\(look.newPeople) of \(look.oldPeople + look.newPeople) people are in the rollout arm "
                + "(\(percent(look.observedShare ?? 0))) where \(percent(share)) were configured (p = "
                + String(format: "%.2g", look.sampleRatioPValue) + "): assignment or logging is broken, so the arms "
                + "cannot be compared")
        }
        guard enough else {
            return (.noDifferenceYet, "too few people or selections so far (current arm \(look.oldPeople) people, "
                + "\(selections.0) selections with a latency; rollout arm \(look.newPeople), \(selections.1); at least "
                + "\(minimumPeople) and \(minimumSelections) each)")
        }
        let median = look.metrics[.medianLatency]?.difference
        let confidence = String(format: "%g%%", (1 - alpha) * 100)
        if let median, median.isAboveZero {
            return (.worse, "median selection latency is higher in the rollout arm (\(confidence) always-valid interval "
                + String(format: "%+.0f to %+.0f ms", median.lower, median.upper) + ")")
        }
        if look.guardrailWorse, let rate = look.metrics[.dismissalRate]?.difference {
            return (.worse, "the dismissal rate is higher in the rollout arm (\(confidence) always-valid interval "
                + String(format: "%+.1f to %+.1f points", rate.lower * 100, rate.upper * 100) + ")")
        }
        if let median, median.isBelowZero {
            return (.better, "median selection latency is lower in the rollout arm (\(confidence) always-valid interval "
                + String(format: "%+.0f to %+.0f ms", median.lower, median.upper) + ") and the dismissal rate is not higher")
        }
        return (.noDifferenceYet, "the always-valid interval of the difference in median selection latency still "
            + "includes zero")
    }
}
