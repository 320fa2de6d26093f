public import CivilTime

/// One row of `menurank proposals list`.
public struct ProposalSummary: Hashable, Sendable {
    public var id: Int
    public var app: String
    public var elementType: String
    /// `pending`, `accepted`, `rejected` or `superseded` (shown as given; the known ones are coloured).
    public var status: String
    public var created: UTCTimestamp
    /// Commands that change place or leave the menu (`ProposalDocument.changedItemCount`).
    public var changedItems: Int

    public init(id: Int, app: String, elementType: String, status: String, created: UTCTimestamp, changedItems: Int) {
        self.id = id
        self.app = app
        self.elementType = elementType
        self.status = status
        self.created = created
        self.changedItems = changedItems
    }
}
