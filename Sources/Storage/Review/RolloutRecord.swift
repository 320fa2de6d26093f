public import CivilTime
public import Menus

/// A rollout as stored in `rollouts` (sql/0019): a proposal's layout served to a share of people
/// while the layout it was made from stays current for the rest.
public struct RolloutRecord: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable, CaseIterable {
        case running
        /// The new layout became current for all.
        case promoted
        /// The old layout is served to all again.
        case stopped
    }

    public var id: Int64
    public var appID: Int32
    public var appName: String
    public var elementType: String
    public var proposalID: Int64
    /// The layout current when the rollout started: the old arm.
    public var baseLayoutVersion: Int
    public var baseMenuVersion: String
    /// The new arm's layout and the `menu_version` its events carry.
    public var layout: Layout
    public var menuVersion: String
    /// Hex text hashed with each person's id to pick the arm on the device.
    public var salt: String
    /// The share of people shown the new layout, 0 < share < 1.
    public var share: Double
    /// When the share was set last: the comparison covers the days since.
    public var shareSince: UTCTimestamp
    public var status: Status
    public var startedAt: UTCTimestamp
    public var endedAt: UTCTimestamp?

    public init(id: Int64, appID: Int32, appName: String, elementType: String, proposalID: Int64, baseLayoutVersion: Int,
                baseMenuVersion: String, layout: Layout, menuVersion: String, salt: String, share: Double,
                shareSince: UTCTimestamp, status: Status, startedAt: UTCTimestamp, endedAt: UTCTimestamp?)
    {
        self.id = id
        self.appID = appID
        self.appName = appName
        self.elementType = elementType
        self.proposalID = proposalID
        self.baseLayoutVersion = baseLayoutVersion
        self.baseMenuVersion = baseMenuVersion
        self.layout = layout
        self.menuVersion = menuVersion
        self.salt = salt
        self.share = share
        self.shareSince = shareSince
        self.status = status
        self.startedAt = startedAt
        self.endedAt = endedAt
    }
}

/// One recorded decision on a rollout (`rollout_decisions`).
public struct RolloutDecision: Hashable, Sendable {
    public enum Action: String, Hashable, Sendable {
        case start, share, promote, stop
    }

    public var action: Action
    /// The share it set (start and share).
    public var share: Double?
    public var decidedBy: String?
    public var note: String?
    public var decidedAt: UTCTimestamp

    public init(action: Action, share: Double?, decidedBy: String?, note: String?, decidedAt: UTCTimestamp) {
        self.action = action
        self.share = share
        self.decidedBy = decidedBy
        self.note = note
        self.decidedAt = decidedAt
    }
}
