public import Ranking

/// The whole output of `menurank recommend` for one app:
/// `{"app", "window": {"from", "to"}, "element_types": [ProposalDocument]}`.
public struct RecommendReport: Hashable, Sendable {
    public var app: String
    /// First day of the window, `YYYY-MM-DD` (UTC).
    public var from: String
    /// Last day of the window (inclusive), `YYYY-MM-DD` (UTC).
    public var to: String
    /// One entry per element type, in the order given (the pipeline sorts them by element type).
    public var elementTypes: [ProposalDocument]

    public init(app: String, from: String, to: String, elementTypes: [ProposalDocument]) {
        self.app = app
        self.from = from
        self.to = to
        self.elementTypes = elementTypes
    }

    /// With the window's days as day indices since 1970-01-01 (the storage layer's days).
    public init(app: String, window: RankingWindow, elementTypes: [ProposalDocument]) {
        self.init(app: app, from: ReportDate.day(window.firstDay), to: ReportDate.day(window.asOf),
                  elementTypes: elementTypes)
    }

    /// Element types whose proposal changes the menu.
    public var changedCount: Int { elementTypes.filter { $0.changed }.count }
}
