import ArgumentParsing
import CivilTime
import Experiments
import Ingest
import JSON
import Postgres
import Reports
import Storage

/// Rollouts as the commands show them, and the share people write (`20%`).
enum PipelineRollouts {
    /// A share as written on the command line: a percentage above 0 and below 100, with or without
    /// `%` (`20%`, `12.5`), as a fraction.
    /// - Throws: `CLIError.usage` for anything else.
    static func share(_ text: String, option: String) throws -> Double {
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(digits), percent.isFinite, percent > 0, percent < 100,
              digits.allSatisfy({ $0.isNumber || $0 == "." })
        else { throw CLIError.usage("\(option) takes a percentage of people above 0% and below 100%, such as 20%") }
        return percent / 100
    }

    /// The rollout's id argument (`7` or `#7`).
    static let idArgument: Argument<String> = .required("id", help: "The rollout's id.")

    static func id(_ values: ParsedValues) throws -> Int64 {
        let text = values[idArgument]
        guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text), id > 0
        else { throw CLIError.usage("a rollout id is a positive number") }
        return id
    }

    /// The facts of a rollout as JSON (the members of `rollouts show --format json` before the
    /// comparison).
    static func json(_ rollout: RolloutRecord, decisions: [RolloutDecision]? = nil) -> [(key: String, value: JSONValue)] {
        var members = RolloutJSON.facts(rollout)
        if let decisions { members.append(("decisions", RolloutJSON.decisions(decisions))) }
        return members
    }

    /// The comparison of a rollout's arms, one look per day since its share was last set.
    static func looks(_ rollout: RolloutRecord, on connection: PostgresConnection) throws -> [ExperimentLook] {
        try RolloutQuery().looks(of: rollout, on: connection)
    }

    /// The rollouts of an app that ran during the days [from, to] (UTC), newest first,
    /// with their comparisons, as the reports show them; of one element type when given.
    static func views(appID: Int32, from: CivilDate, to: CivilDate, elementType: String? = nil, on connection: PostgresConnection) throws
        -> [RolloutView]
    {
        try RolloutStore().list(appID: appID, on: connection).filter { rollout in
            let started = rollout.startedAt.day
            let ended = rollout.endedAt?.day
            return started <= to && ended.map { $0 >= from } ?? true && (elementType == nil || rollout.elementType == elementType)
        }.map { rollout in
            RolloutView(id: Int(rollout.id), elementType: rollout.elementType, status: rollout.status.rawValue,
                        share: rollout.share, oldMenuVersion: rollout.baseMenuVersion, newMenuVersion: rollout.menuVersion,
                        looks: try looks(rollout, on: connection))
        }
    }

    /// The rollouts part of `outcomes`: one summary line per rollout, then its latest look.
    static func outcomesText(_ views: [RolloutView]) -> String {
        guard !views.isEmpty else { return "" }
        var out = "\nRollouts (menurank rollouts show ID for the decisions):\n"
        for view in views {
            out += "  " + view.summaryLine + "\n"
            if let last = view.looks.last {
                out += ExperimentLookText.render(last).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
            }
        }
        return out
    }

    /// The rollouts as JSON: each with its facts and its looks.
    static func json(_ views: [RolloutView]) -> JSONValue {
        .array(views.map { view in
            .object([
                ("id", .number(JSONNumber(view.id))),
                ("element_type", .string(view.elementType)),
                ("status", .string(view.status)),
                ("share", .number(JSONNumber(view.share))),
                ("old_menu_version", .string(view.oldMenuVersion)),
                ("new_menu_version", .string(view.newMenuVersion)),
                ("verdict", view.looks.last.map { .string($0.verdict.rawValue) } ?? .null),
                ("looks", .array(view.looks.map(\.jsonValue))),
            ])
        })
    }

    /// The latest look as text, or why there is none.
    static func comparisonText(_ rollout: RolloutRecord, looks: [ExperimentLook]) -> String {
        guard let last = looks.last else {
            return "no events of either arm since \(ReportDate.minute(rollout.shareSince)) yet: no difference yet\n"
        }
        return "comparison of the arms over \(looks.count) day\(looks.count == 1 ? "" : "s") since "
            + "\(ReportDate.minute(rollout.shareSince)):\n" + ExperimentLookText.render(last)
    }

    /// One line per rollout for `rollouts list`.
    static func line(_ rollout: RolloutRecord) -> [String] {
        ["#\(rollout.id)", rollout.appName, rollout.elementType, rollout.status.rawValue,
         RolloutStore.percentText(rollout.share), rollout.baseMenuVersion, rollout.menuVersion,
         ReportDate.minute(rollout.startedAt)]
    }

    /// The header of `rollouts show`: the arms, the share, every decision.
    static func header(_ rollout: RolloutRecord, decisions: [RolloutDecision]) -> String {
        var out = "rollout #\(rollout.id): \(rollout.appName) \(rollout.elementType), \(rollout.status.rawValue), "
            + "proposal #\(rollout.proposalID)\n"
        out += "  rollout layout (menu_version \(rollout.menuVersion)) for \(RolloutStore.percentText(rollout.share)) of people "
            + "since \(ReportDate.minute(rollout.shareSince)); the rest keep the current layout, version \(rollout.baseLayoutVersion) "
            + "(menu_version \(rollout.baseMenuVersion))\n"
        for decision in decisions {
            out += "  \(ReportDate.minute(decision.decidedAt)) \(decision.action.rawValue)"
                + (decision.share.map { " \(RolloutStore.percentText($0))" } ?? "")
                + (decision.decidedBy.map { " by \($0)" } ?? "") + (decision.note.map { ": \($0)" } ?? "") + "\n"
        }
        return out
    }
}
