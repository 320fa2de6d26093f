/// What filing a `ProposalDraft` did.
public enum ProposalFiling: Hashable, Sendable {
    /// A new pending proposal was stored; `superseded` lists the pending one it replaced, if any.
    case filed(id: Int64, superseded: [Int64])
    /// A pending proposal with the same layout for the same base layout exists; nothing was stored.
    case alreadyPending(id: Int64)
    /// A reviewer rejected the same layout for the same base layout; nothing was stored.
    case alreadyRejected(id: Int64)

    /// The proposal that stands for the draft: the new one, or the existing one.
    public var proposalID: Int64 {
        switch self {
        case let .filed(id, _), let .alreadyPending(id), let .alreadyRejected(id): id
        }
    }
}
