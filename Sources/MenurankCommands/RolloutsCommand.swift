import ArgumentParsing
import JSON
import Storage

extension Menurank {
    /// `menurank rollouts list|show|set-share|promote|stop`: layouts served to a share of people.
    static let rolloutsCommand = CommandSpec(
        name: "rollouts",
        abstract: "Rollouts of accepted layouts to a share of people: list, show, set-share, promote, stop.",
        discussion: """
            A rollout starts with menurank proposals accept ID --rollout 20%: GET /v1/menus then serves \
            the proposal's layout to that share of people, picked on the device from a hash of the \
            rollout's salt and the person's id, and the current layout to the rest (docs/rollouts.md).
            """,
        subcommands: [rolloutsListCommand, rolloutsShowCommand, rolloutsSetShareCommand, rolloutsPromoteCommand,
                      rolloutsStopCommand])

    static let rolloutStatus: Option<RolloutRecord.Status?> = .choice("status", help: "Only rollouts with this status.")

    static let rolloutsListCommand = CommandSpec(
        name: "list",
        abstract: "List rollouts, newest first.",
        options: [listApp.spec, rolloutStatus.spec, listFormat.spec],
        run: { context in
            let app = context.values[listApp]
            let status = context.values[rolloutStatus]
            let rollouts = try await PipelineDatabase.run(context.values) { connection in
                let id = try app.map { try PipelineDatabase.appID(named: $0, on: connection) }
                return try RolloutStore().list(appID: id, status: status, on: connection)
            }
            if context.values[listFormat] == .json {
                context.console.print(JSONValue.array(rollouts.map { .object(PipelineRollouts.json($0)) }).jsonText)
                return
            }
            guard !rollouts.isEmpty else {
                context.console.print("no rollouts")
                return
            }
            let rows = [["id", "app", "element type", "status", "share", "old", "new", "started"]]
                + rollouts.map(PipelineRollouts.line)
            context.console.write(PipelineRankOutput.aligned(rows, rightAligned: [4]))
        })

    static let rolloutsShowCommand = CommandSpec(
        name: "show",
        abstract: "Show a rollout: its arms, share, decisions, and the comparison of the arms.",
        discussion: """
            The comparison reads the events of both arms' menu versions since the share was last set, \
            sums them per person, and gives for new minus old: median and 75th-percentile selection \
            latency, dismissal rate and observed scan depth, each with a 95% always-valid interval \
            (mixture SPRT, valid however often it is looked at), a sample-ratio check of the arms' \
            shares of people, and a verdict: better, worse, no difference yet, or sample ratio \
            mismatch (docs/rollouts.md). --format json adds one look per day (for charts).
            """,
        options: [listFormat.spec],
        arguments: [PipelineRollouts.idArgument.spec],
        run: { context in
            let id = try PipelineRollouts.id(context.values)
            let (rollout, decisions, looks) = try await PipelineDatabase.run(context.values) { connection in
                guard let rollout = try RolloutStore().rollout(id: id, on: connection) else {
                    throw CLIError.failure("no rollout #\(id)")
                }
                return (rollout, try RolloutStore().decisions(id: id, on: connection),
                        try PipelineRollouts.looks(rollout, on: connection))
            }
            if context.values[listFormat] == .json {
                var members = PipelineRollouts.json(rollout, decisions: decisions)
                members.append(("verdict", looks.last.map { .string($0.verdict.rawValue) } ?? .string("no difference yet")))
                members.append(("looks", .array(looks.map(\.jsonValue))))
                context.console.print(JSONValue.object(members).jsonText)
                return
            }
            context.console.write(PipelineRollouts.header(rollout, decisions: decisions) + "\n")
            context.console.write(PipelineRollouts.comparisonText(rollout, looks: looks))
        })

    static let rolloutShare: Option<String> = .required(
        "share", valueName: "percent", help: "The new share of people shown the new layout, such as 50%.")

    static let rolloutsSetShareCommand = CommandSpec(
        name: "set-share",
        abstract: "Widen a running rollout: everyone already shown the new layout keeps it.",
        discussion: """
            The share only grows (narrowing would move people back to the old layout in the middle of \
            the comparison; stop the rollout instead). The comparison starts again from the change, \
            since the people who moved would blur both arms. Recorded with who (--by) and why (--note).
            """,
        options: [rolloutShare.spec, decisionNote.spec, author.spec],
        arguments: [PipelineRollouts.idArgument.spec],
        validate: { values in
            try validateNoteAndAuthor(values)
            _ = try PipelineRollouts.share(values[rolloutShare], option: "--share")
        },
        run: { context in
            let id = try PipelineRollouts.id(context.values)
            let share = try PipelineRollouts.share(context.values[rolloutShare], option: "--share")
            let note = context.values[decisionNote]
            let author = PipelineProposals.author(context)
            let rollout = try await PipelineDatabase.run(context.values) { connection in
                try RolloutStore().setShare(id: id, share: share, note: note, by: author, on: connection)
            }
            context.console.print("rollout #\(rollout.id): \(rollout.appName) \(rollout.elementType) now serves its layout to "
                + "\(RolloutStore.percentText(rollout.share)) of people (by \(author))")
        })

    static let rolloutsPromoteCommand = CommandSpec(
        name: "promote",
        abstract: "Promote a running rollout: its layout becomes the current layout for everyone.",
        discussion: """
            The new layout keeps the menu_version its events carried during the rollout. Recorded with \
            who (--by) and why (--note).
            """,
        options: [decisionNote.spec, author.spec],
        arguments: [PipelineRollouts.idArgument.spec],
        validate: validateNoteAndAuthor,
        run: { context in
            let id = try PipelineRollouts.id(context.values)
            let note = context.values[decisionNote]
            let author = PipelineProposals.author(context)
            let (rollout, version) = try await PipelineDatabase.run(context.values) { connection in
                try RolloutStore().promote(id: id, note: note, by: author, on: connection)
            }
            context.console.print("promoted rollout #\(rollout.id): \(rollout.appName) \(rollout.elementType) is now layout "
                + "version \(version), menu_version \(rollout.menuVersion), for everyone (by \(author))")
        })

    static let rolloutsStopCommand = CommandSpec(
        name: "stop",
        abstract: "Stop a running rollout: everyone gets the old layout again.",
        discussion: """
            The proposal is marked rejected, so the same layout is not proposed again for the same \
            current layout. Recorded with who (--by) and why (--note).
            """,
        options: [decisionNote.spec, author.spec],
        arguments: [PipelineRollouts.idArgument.spec],
        validate: validateNoteAndAuthor,
        run: { context in
            let id = try PipelineRollouts.id(context.values)
            let note = context.values[decisionNote]
            let author = PipelineProposals.author(context)
            let rollout = try await PipelineDatabase.run(context.values) { connection in
                try RolloutStore().stop(id: id, note: note, by: author, on: connection)
            }
            context.console.print("stopped rollout #\(rollout.id): \(rollout.appName) \(rollout.elementType) serves layout "
                + "version \(rollout.baseLayoutVersion) (menu_version \(rollout.baseMenuVersion)) to everyone (by \(author))")
        })
}
