public import Menus
public import Postgres

extension ProposalStore {
    /// The layout accepting `proposal` makes current: its proposed layout, or with `title` that
    /// layout with the commands it prunes kept in a submenu of that title (`Layout.keepingPruned`;
    /// destructive commands, from the app's newest manifest, stay last).
    /// - Throws: `StorageError.invalidArgument` when the commands cannot be kept (a bad title, no room).
    public func servedLayout(_ proposal: ProposalRecord, keepingPruned title: String?,
                             on connection: PostgresConnection) throws(StorageError) -> Layout
    {
        return try StorageError.mapping {
            guard let title else { return proposal.proposed }
            let proposed = Set(proposal.proposed.commandsInOrder)
            let pruned = proposal.current.distinctCommands.filter { !proposed.contains($0) }
            let destructive = Set(try connection.query("""
                SELECT command FROM menu_commands WHERE app_id = \(proposal.appID) AND destructive
                """).map { try $0.decode(String.self, column: "command") })

            do {
                return try proposal.proposed.keepingPruned(pruned, title: title, destructive: destructive)
            } catch {
                throw StorageError(.invalidArgument, "cannot keep the pruned commands of proposal \(proposal.id): \(error)")
            }
        }
    }
}
