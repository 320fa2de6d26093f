import ArgumentParsing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ingest
import JSON
import Storage

extension PipelineProposals {
    /// Who a command-line decision is recorded as: `--by` (or `MENURANK_REVIEWER`), else `cli:$USER`
    /// (`$LOGNAME`; in a shell without either, a cron job or a container, the OS user the process
    /// runs as, from the password database).
    static func author(_ context: CommandContext) -> String {
        if let by = context.values[Menurank.author] { return by }
        let user = [context.environment["USER"], context.environment["LOGNAME"]].compactMap { $0 }.first { !$0.isEmpty }
            ?? osUser() ?? "uid \(getuid())"
        return "cli:\(user)"
    }

    /// The name of the user the process runs as (`getpwuid(getuid())`), nil when it has none.
    static func osUser() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        let text = String(cString: name)
        return text.isEmpty ? nil : text
    }

    /// `proposals accept ID --dry-run`: prints (as JSON) what `GET /v1/menus` will serve once the
    /// proposal is accepted, changing nothing.
    /// - Throws: `CLIError.failure` when accepting would be refused (not pending, made from a layout
    ///   that is no longer current, or a rollout of the element type runs), as `accept` would.
    static func printAcceptPreview(id: Int64, keepingPruned title: String?, step: String? = nil,
                                   context: CommandContext) async throws {
        let (record, current, layout) = try await PipelineDatabase.run(context.values) { connection in
            guard let record = try ProposalStore().proposal(id: id, on: connection) else {
                throw CLIError.failure("no proposal #\(id)")
            }
            let current = try LayoutStore().currentLayout(appID: record.appID, elementType: record.elementType,
                                                          on: connection)
            let layout = try step.map { try ProposalStore().stepLayout(record, step: $0, on: connection) }
                ?? ProposalStore().servedLayout(record, keepingPruned: title, on: connection)
            if record.status == .pending { try ProposalStore.refuseWhileRollingOut(record, on: connection) }
            return (record, current?.version, layout)
        }
        guard record.status == .pending else {
            throw CLIError.failure("proposal #\(id) is \(record.status.rawValue); only a pending proposal can be accepted")
        }
        guard current == record.baseLayoutVersion else {
            throw CLIError.failure("proposal #\(id) was made from layout version \(record.baseLayoutVersion) of "
                + "\(record.elementType), but the current layout is version \(current.map(String.init) ?? "none"); "
                + "run menurank recommend for a fresh proposal")
        }
        let appID = record.appID
        let served = try await CommandDatabase.withPool(context.values, application: "menurank-proposals", size: 1) { pool in
            do {
                return try MenuReader(pool: pool).currentMenus(appID: appID)
            } catch {
                throw CommandDatabase.failure(error)
            }
        }
        let document = MenusPreview.afterAccepting(elementType: record.elementType, layout: layout,
                                                   appName: record.appName, menus: served)
        context.console.print(JSONWriter(style: .pretty).string(document))
        context.console.printError("dry run: nothing changed; accepting proposal #\(id) makes GET /v1/menus serve the above")
    }
}
