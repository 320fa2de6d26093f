public import CivilTime
public import Menus

/// A stored proposal.
public struct ProposalRecord: Hashable, Sendable {
    public var id: Int64
    public var appID: Int32
    public var appName: String
    public var elementType: String
    public var status: ProposalStatus
    public var baseLayoutVersion: Int
    /// The ranking window, its first and last day (inclusive).
    public var windowFrom: CivilDate
    public var windowTo: CivilDate
    public var current: Layout
    public var proposed: Layout
    /// The element type's entry of `recommend --format json`, as JSON text.
    public var evidence: String
    public var createdAt: UTCTimestamp
    public var decidedAt: UTCTimestamp?
    public var note: String?
    /// Who accepted or rejected it: `token:NAME` (admin API) or `cli:USER` (command line).
    public var decidedBy: String?

    public init(id: Int64, appID: Int32, appName: String, elementType: String, status: ProposalStatus,
                baseLayoutVersion: Int, windowFrom: CivilDate, windowTo: CivilDate, current: Layout, proposed: Layout,
                evidence: String, createdAt: UTCTimestamp, decidedAt: UTCTimestamp?, note: String?, decidedBy: String? = nil)
    {
        self.id = id
        self.appID = appID
        self.appName = appName
        self.elementType = elementType
        self.status = status
        self.baseLayoutVersion = baseLayoutVersion
        self.windowFrom = windowFrom
        self.windowTo = windowTo
        self.current = current
        self.proposed = proposed
        self.evidence = evidence
        self.createdAt = createdAt
        self.decidedAt = decidedAt
        self.note = note
        self.decidedBy = decidedBy
    }
}
