/// What filing a `ProposalDraft` did.
public enum ProposalFiling: Hashable, Sendable {
    /// A new pending proposal was stored; `superseded` lists the pending one it replaced, if any.
    case filed(id: Int64, superseded: [Int64])
    /// A pending proposal with the same layout for the same base layout exists; nothing was stored.
    case alreadyPending(id: Int64)
    /// A reviewer rejected the same layout for the same base layout; nothing was stored.
    case alreadyRejected(id: Int64)
    /// The element type's current layout is no longer the draft's base (a proposal was accepted,
    /// a layout rolled back or a manifest imported since the draft was computed): nothing was
    /// stored and no pending proposal was superseded, since a proposal filed against a stale base
    /// could never be accepted and would hide the one standing. The next run recomputes against
    /// `currentLayoutVersion` (nil when the element type has no layout any more).
    case staleBase(currentLayoutVersion: Int?)

    /// The proposal that stands for the draft: the new one, or the existing one; nil when nothing
    /// was filed for a stale base.
    public var proposalID: Int64? {
        switch self {
        case let .filed(id, _), let .alreadyPending(id), let .alreadyRejected(id): id
        case .staleBase: nil
        }
    }
}
