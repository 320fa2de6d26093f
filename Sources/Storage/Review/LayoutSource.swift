/// Where a stored layout came from.
public enum LayoutSource: String, Hashable, Sendable {
    /// `menurank menus import`.
    case manifest
    /// An accepted proposal.
    case proposal
    /// `menurank layouts rollback`: the layout from before the last accepted proposal, served again
    /// (sql/0018, `LayoutRollback`).
    case rollback
}
