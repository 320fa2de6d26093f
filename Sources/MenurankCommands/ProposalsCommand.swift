import ArgumentParsing
import Escaping
import JSON
import Menus
import Reports
import Storage

/// `proposals list --status`: one status, or `all` (the review page's "All" tab).
enum ProposalStatusFilter: String, CaseIterable, Sendable {
    case pending, accepted, rejected, superseded, all

    /// The status it keeps; nil for all of them.
    var status: ProposalStatus? { ProposalStatus(rawValue: rawValue) }
}

extension Menurank {
    /// `menurank proposals list|show|diff|accept|reject`: review.
    static let proposalsCommand = CommandSpec(
        name: "proposals",
        abstract: "Review menu proposals: list, show, diff, accept, reject.",
        subcommands: [proposalsListCommand, proposalsShowCommand, proposalsDiffCommand, proposalsAcceptCommand,
                      proposalsRejectCommand])

    static let listStatus: Option<ProposalStatusFilter?> = .choice(
        "status", help: "Only proposals with this status (all: every status, as without --status).")
    static let listFormat: Option<TextOrJSON> = .format(help: "Output format.")
    static let listApp: Option<String?> = .string("app", valueName: "name", help: "Only this app's proposals.")

    static let proposalsListCommand = CommandSpec(
        name: "list",
        abstract: "List proposals, newest first.",
        options: [
            listApp.spec,
            listStatus.spec,
            listFormat.spec,
        ],
        run: { context in
            let app = context.values[listApp]
            let status = context.values[listStatus]?.status
            let records = try await PipelineDatabase.run(context.values) { connection in
                let id = try app.map { try PipelineDatabase.appID(named: $0, on: connection) }
                return try ProposalStore().list(appID: id, status: status, on: connection)
            }
            let summaries = try records.map(PipelineProposals.summary)
            if context.values[listFormat] == .json {
                context.console.print(ProposalSummary.jsonText(summaries))
                return
            }
            context.console.write(TextReportRenderer(colour: PipelineRecommendOutput.colour(context)).render(summaries))
        })

    static let proposalsShowCommand = CommandSpec(
        name: "show",
        abstract: "Show a proposal with its evidence.",
        options: [Option.documentFormat.spec],
        arguments: [PipelineProposals.idArgument.spec],
        run: { context in try await printProposal(context, withEvidence: true) })

    static let proposalsDiffCommand = CommandSpec(
        name: "diff",
        abstract: "Show a proposal as a diff against the layout it was made from.",
        options: [Option.documentFormat.spec],
        arguments: [PipelineProposals.idArgument.spec],
        run: { context in try await printProposal(context, withEvidence: false) })

    /// `show` and `diff`: the proposal as text, Markdown or JSON. `show` adds the stored evidence
    /// (the JSON record with its review status, and a table of use per command); `diff` is the
    /// layout diff alone.
    private static func printProposal(_ context: CommandContext, withEvidence: Bool) async throws {
        let id = try PipelineProposals.id(context.values)
        let (record, titles) = try await PipelineProposals.load(id: id, values: context.values)
        let document = try PipelineProposals.document(record)
        switch context.values[.documentFormat] {
        case .json:
            context.console.print(withEvidence ? try PipelineProposals.json(record).jsonText : document.jsonValue.jsonText)
        case .markdown:
            context.console.write(MarkdownReportRenderer(titles: titles.mapValues(\.title)).render(document))
        case .text:
            context.console.write(PipelineProposals.header(record) + "\n")
            context.console.write(TextReportRenderer(colour: PipelineRecommendOutput.colour(context),
                                                     titles: titles.mapValues(\.title)).render(document))
            if withEvidence {
                context.console.write("\nUse per command:\n" + PipelineProposals.evidenceTable(document))
            }
        }
    }

    static let proposalsAcceptCommand = CommandSpec(
        name: "accept",
        abstract: "Accept a pending proposal: its layout becomes the current layout.",
        discussion: """
            The accepted layout is what GET /v1/menus serves and what menurank menus export writes. \
            Only a pending proposal made from the layout that is still current can be accepted. The \
            decision records who made it (--by, else cli:$USER), when, and the note. --dry-run \
            changes nothing and prints what GET /v1/menus will serve once the proposal is accepted. \
            --keep-pruned TITLE moves the commands flagged for pruning into a submenu with that title \
            (in the last group, before destructive commands, or in a group of its own) instead of \
            dropping them from the served menu. --rollout 20% starts a rollout instead: the layout is \
            served to that share of people and the current one to the rest, both compared on the same \
            days (menurank rollouts, docs/rollouts.md). --step reorder|regroup serves a larger step of \
            the proposal's ladder instead of the filed one (see proposals show).
            """,
        options: [
            decisionNote.spec, author.spec, acceptDryRun.spec, keepPruned.spec, acceptRollout.spec, acceptStep.spec,
        ],
        arguments: [PipelineProposals.idArgument.spec],
        validate: { values in
            try validateDecision(values)
            if let step = values[acceptStep], !["promote", "reorder", "regroup"].contains(step) {
                throw CLIError.usage("--step is promote, reorder or regroup")
            }
            if values[acceptStep] != nil, values[keepPruned] != nil || values[acceptRollout] != nil {
                throw CLIError.usage("--step goes without --keep-pruned and --rollout")
            }
            if let text = values[acceptRollout] {
                _ = try PipelineRollouts.share(text, option: "--rollout")
                if values[acceptDryRun] { throw CLIError.usage("--dry-run previews a full accept; leave out --rollout") }
            }
        },
        run: { context in
            let id = try PipelineProposals.id(context.values)
            if let text = context.values[acceptRollout] {
                let share = try PipelineRollouts.share(text, option: "--rollout")
                let (note, author, keep) = (context.values[decisionNote], PipelineProposals.author(context),
                                            context.values[keepPruned])
                let rollout = try await PipelineDatabase.run(context.values) { connection in
                    try RolloutStore().start(proposalID: id, share: share, note: note, by: author, keepingPruned: keep,
                                             on: connection)
                }
                context.console.print("accepted proposal #\(id) as rollout #\(rollout.id): \(rollout.appName) "
                    + "\(rollout.elementType) serves its layout (menu_version \(rollout.menuVersion)) to "
                    + "\(RolloutStore.percentText(rollout.share)) of people and layout version \(rollout.baseLayoutVersion) "
                    + "(menu_version \(rollout.baseMenuVersion)) to the rest (by \(author))")
                return
            }
            if context.values[acceptDryRun] {
                try await PipelineProposals.printAcceptPreview(id: id, keepingPruned: context.values[keepPruned],
                                                               step: context.values[acceptStep],
                                                               context: context)
                return
            }
            let note = context.values[decisionNote]
            let author = PipelineProposals.author(context)
            let keep = context.values[keepPruned]
            let step = context.values[acceptStep]
            let (record, version, menuVersion) = try await PipelineDatabase.run(context.values) { connection in
                try ProposalStore().accept(id: id, note: note, by: author, keepingPruned: keep, step: step, on: connection)
            }
            context.console.print("accepted proposal #\(record.id): \(record.appName) \(record.elementType) "
                + "is now layout version \(version), menu_version \(menuVersion) (by \(author); apps send it back "
                + "with their events)")
        })

    /// `--by`: who decides, recorded with the decision.
    static let author: Option<String?> = .string(
        "by", valueName: "name", environment: ["MENURANK_REVIEWER"],
        help: "Who decides, recorded with the decision (default: cli:$USER).")
    static let decisionNote: Option<String?> = .string("note", valueName: "text", help: "Why (kept with the proposal).")
    static let acceptDryRun: Option<Bool> = .flag(
        "dry-run", help: "Print what GET /v1/menus will serve after accepting; change nothing.")
    static let acceptRollout: Option<String?> = .string(
        "rollout", valueName: "percent",
        help: "Start a rollout: serve the layout to this share of people (such as 20%), the current one to the rest.")
    static let acceptStep: Option<String?> = .string(
        "step", valueName: "step",
        help: "Serve this step of the proposal's ladder (promote, reorder, regroup) instead of the filed one.")
    static let keepPruned: Option<String?> = .string(
        "keep-pruned", valueName: "title",
        help: "Keep the commands the proposal prunes in a submenu with this title instead of dropping them.")

    /// `--note` and `--by` of a decision (a proposal's or a rollout's).
    static let validateNoteAndAuthor: @Sendable (ParsedValues) throws -> Void = { values in
        if let note = values[decisionNote] {
            if note.count > 2000 { throw CLIError.usage("--note must be at most 2000 characters") }
            if FreeText.firstRefused(in: note, allowingLineBreaks: true) != nil {
                throw CLIError.usage("--note must not hold \(FreeText.ruleDescription) other than newline and tab")
            }
        }
        if let by = values[author] {
            if by.isEmpty || by.count > 200 { throw CLIError.usage("--by must be 1-200 characters") }
            if FreeText.firstRefused(in: by) != nil { throw CLIError.usage("--by must not hold \(FreeText.ruleDescription)") }
        }
    }

    static let validateDecision: @Sendable (ParsedValues) throws -> Void = { values in
        try validateNoteAndAuthor(values)
        if let title = values[keepPruned] {
            do throws(Layout.KeepPrunedError) {
                try Layout.checkKeptTitle(title)
            } catch {
                throw CLIError.usage("--keep-pruned: \(error)")
            }
        }
    }

    static let proposalsRejectCommand = CommandSpec(
        name: "reject",
        abstract: "Reject a pending proposal.",
        discussion: """
            The same layout is not proposed again for the same current layout. The decision records \
            who made it (--by, else cli:$USER), when, and the note.
            """,
        options: [decisionNote.spec, author.spec],
        arguments: [PipelineProposals.idArgument.spec],
        validate: validateNoteAndAuthor,
        run: { context in
            let id = try PipelineProposals.id(context.values)
            let note = context.values[decisionNote]
            let author = PipelineProposals.author(context)
            let record = try await PipelineDatabase.run(context.values) { connection in
                try ProposalStore().reject(id: id, note: note, by: author, on: connection)
            }
            context.console.print("rejected proposal #\(record.id): \(record.appName) \(record.elementType) (by \(author))")
        })
}
