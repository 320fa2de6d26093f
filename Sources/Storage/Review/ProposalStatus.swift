/// The review status of a proposal.
public enum ProposalStatus: String, Hashable, Sendable, CaseIterable {
    /// Waiting for review; at most one per element type.
    case pending
    /// Accepted: its layout became the current layout.
    case accepted
    /// Rejected by a reviewer; the same layout is not proposed again for the same base layout.
    case rejected
    /// Replaced by a newer proposal for the same element type before it was reviewed.
    case superseded
}
