public import CivilTime

/// What `menurank outcomes` reports for one app over a window: per element type, each menu version
/// seen and, for each layout accepted from a proposal, the comparison with its predecessor.
public struct OutcomeReport: Hashable, Sendable {
    public var app: String
    /// First and last day of the window (UTC).
    public var windowFrom: CivilDate
    public var windowTo: CivilDate
    public var elementTypes: [ElementOutcomes]

    public init(app: String, windowFrom: CivilDate, windowTo: CivilDate, elementTypes: [ElementOutcomes]) {
        self.app = app
        self.windowFrom = windowFrom
        self.windowTo = windowTo
        self.elementTypes = elementTypes
    }
}

public struct ElementOutcomes: Hashable, Sendable {
    public var elementType: String
    /// Known versions by layout version, then rollout arms by rollout, then unknown ones by name,
    /// then events without a version.
    public var versions: [VersionOutcome]
    public var comparisons: [LayoutComparison]

    public init(elementType: String, versions: [VersionOutcome], comparisons: [LayoutComparison]) {
        self.elementType = elementType
        self.versions = versions
        self.comparisons = comparisons
    }
}

/// One menu version of an element type over the window.
public struct VersionOutcome: Hashable, Sendable {
    public enum Status: Hashable, Sendable {
        /// A stored layout of the element type has this menu version.
        case known(layoutVersion: Int, proposalID: Int64?)
        /// The rollout arm of a rollout (not, or not yet, a stored layout): its events are those
        /// of the people shown the proposal's layout while the rest keep the current one.
        case rollout(rolloutID: Int64, proposalID: Int64)
        /// No layout of the element type has it (a typo, a build from elsewhere, a deleted app
        /// version): counted and reported, never dropped.
        case unknown
        /// The events carried no `menu_version`.
        case notSent
    }

    public var menuVersion: String
    public var status: Status
    public var tally: OutcomeTally
    /// Days of the window with at least one open under this version.
    public var days: Int

    public init(menuVersion: String, status: Status, tally: OutcomeTally, days: Int) {
        self.menuVersion = menuVersion
        self.status = status
        self.tally = tally
        self.days = days
    }
}

/// A layout accepted from a proposal against the layout it replaced.
public struct LayoutComparison: Hashable, Sendable {
    public var proposalID: Int64?
    public var oldMenuVersion: String
    public var oldLayoutVersion: Int
    public var newMenuVersion: String
    public var newLayoutVersion: Int
    public var comparison: OutcomeComparison
    /// What the proposal's evidence predicted, when it is known.
    public var predicted: PredictedEvidence?

    public init(proposalID: Int64?, oldMenuVersion: String, oldLayoutVersion: Int, newMenuVersion: String,
                newLayoutVersion: Int, comparison: OutcomeComparison, predicted: PredictedEvidence?)
    {
        self.proposalID = proposalID
        self.oldMenuVersion = oldMenuVersion
        self.oldLayoutVersion = oldLayoutVersion
        self.newMenuVersion = newMenuVersion
        self.newLayoutVersion = newLayoutVersion
        self.comparison = comparison
        self.predicted = predicted
    }
}

/// The model's prediction that a proposal carried as evidence: expected scan depth (items scanned
/// per selection) under the layout it replaced and under itself, and the time saved per selection.
public struct PredictedEvidence: Hashable, Sendable {
    public var scanDepthBefore: Double
    public var scanDepthAfter: Double
    public var timeSavedSeconds: Double?

    public init(scanDepthBefore: Double, scanDepthAfter: Double, timeSavedSeconds: Double?) {
        self.scanDepthBefore = scanDepthBefore
        self.scanDepthAfter = scanDepthAfter
        self.timeSavedSeconds = timeSavedSeconds
    }
}
