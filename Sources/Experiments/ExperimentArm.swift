/// The two arms of a rollout: the layout that was current when it started, and the new one.
public enum ExperimentArm: Int, Hashable, Sendable, CaseIterable {
    case old = 0
    case new = 1
}
