/// Where a stored layout came from.
public enum LayoutSource: String, Hashable, Sendable {
    /// `menurank menus import`.
    case manifest
    /// An accepted proposal.
    case proposal
}
