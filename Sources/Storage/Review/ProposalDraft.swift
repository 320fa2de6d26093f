public import CivilTime
public import Menus

/// A proposal the nightly run wants to file for one element type.
public struct ProposalDraft: Hashable, Sendable {
    public var elementType: String
    /// The version of the current layout the proposal was made from.
    public var baseLayoutVersion: Int
    /// The ranking window, its first and last day (inclusive).
    public var windowFrom: CivilDate
    public var windowTo: CivilDate
    public var current: Layout
    public var proposed: Layout
    /// The element type's entry of `recommend --format json`, as JSON text.
    public var evidence: String

    public init(elementType: String, baseLayoutVersion: Int, windowFrom: CivilDate, windowTo: CivilDate, current: Layout,
                proposed: Layout, evidence: String)
    {
        self.elementType = elementType
        self.baseLayoutVersion = baseLayoutVersion
        self.windowFrom = windowFrom
        self.windowTo = windowTo
        self.current = current
        self.proposed = proposed
        self.evidence = evidence
    }
}
