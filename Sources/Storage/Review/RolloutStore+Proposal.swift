import CivilTime
import Foundation
import Postgres

extension RolloutStore {
    /// The proposal a rollout starts from, locked with the app's menus: pending, and made from the
    /// element type's current layout (a proposal made from an older layout would undo what came
    /// since), with that layout.
    /// - Throws: `.notFound`, `.invalidArgument` (not pending, or made from another layout).
    func startingProposal(id: Int64, appID: Int32, on connection: PostgresConnection) throws
        -> (proposal: ProposalRecord, current: LayoutRecord)
    {
        try ManifestStore.lockMenus(appID: appID, on: connection)
        guard let row = try connection.query("""
            SELECT \(unsafeRaw: ProposalStore.columns) FROM proposals p JOIN apps a ON a.app_id = p.app_id
            WHERE p.app_id = \(appID) AND p.proposal_id = \(id) FOR UPDATE OF p
            """).first
        else { throw StorageError(.notFound, "no proposal \(id)") }
        let proposal = try ProposalStore.record(row)
        guard proposal.status == .pending else {
            throw StorageError(.invalidArgument,
                               "proposal \(id) is \(proposal.status.rawValue); only a pending proposal can start a rollout")
        }
        let current = try LayoutStore().currentLayout(appID: appID, elementType: proposal.elementType, on: connection)
        guard let current, current.version == proposal.baseLayoutVersion else {
            throw StorageError(.invalidArgument, "proposal \(id) was made from layout version \(proposal.baseLayoutVersion) "
                + "of \(proposal.elementType), which is no longer current; run menurank recommend for a fresh proposal")
        }
        return (proposal, current)
    }

    /// Records a rollout's decision on its proposal: accepted at the start, rejected at a stop.
    func markProposal(_ id: Int64, appID: Int32, as status: ProposalStatus, note: String, by author: String?,
                      on connection: PostgresConnection) throws
    {
        try connection.execute("""
            UPDATE proposals SET status = \(status.rawValue), decided_at = \(clock.now()), note = \(String(note.prefix(2000))),
                decided_by = NULLIF(\(author ?? ""), '')
            WHERE app_id = \(appID) AND proposal_id = \(id)
            """)
    }
}
