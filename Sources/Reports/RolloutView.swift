public import Experiments

/// A rollout as the reports show it: who it serves and its comparison, one look per day (what
/// `menurank rollouts show` prints; Reports knows nothing of the database's record).
public struct RolloutView: Sendable {
    public var id: Int
    public var elementType: String
    /// running, promoted or stopped.
    public var status: String
    public var share: Double
    public var oldMenuVersion: String
    public var newMenuVersion: String
    public var looks: [ExperimentLook]

    public init(id: Int, elementType: String, status: String, share: Double, oldMenuVersion: String, newMenuVersion: String,
                looks: [ExperimentLook])
    {
        self.id = id
        self.elementType = elementType
        self.status = status
        self.share = share
        self.oldMenuVersion = oldMenuVersion
        self.newMenuVersion = newMenuVersion
        self.looks = looks
    }

    /// One line: the rollout, its arms and its latest verdict.
    public var summaryLine: String {
        "rollout #\(id) \(elementType) (\(status), \(ReportNumber.percent(share, decimals: 0)) of people): "
            + "current \(oldMenuVersion) vs rollout \(newMenuVersion): " + (looks.last.map { "\($0.verdict.rawValue): \($0.reason)" }
                ?? "no events of either arm yet")
    }
}
