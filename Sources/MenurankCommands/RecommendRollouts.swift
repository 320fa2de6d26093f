import ArgumentParsing
import Experiments
import Foundation
import JSON
import Nightly
import Reports
import Storage

/// The rollout step of the nightly run (`recommend`), opt-in:
///
/// - `--auto-rollout 10%`: each proposal the run newly files starts as a rollout to that share of
///   people instead of waiting for review (`RolloutStore.start`, recorded as `recommend`).
/// - `--decide-rollouts`: every running rollout of the run's apps is compared (`RolloutExperiment`)
///   and promoted when the verdict is `better` and no guardrail (the dismissal rate) is worse, or
///   stopped when it is `worse`; the verdict's reason is recorded as the decision's note. A rollout
///   with a sample ratio mismatch is left running and reported: its data cannot be trusted for
///   either decision, and whoever looks can stop it.
/// - With `--notify-url`, each start, promotion and stop is posted there too
///   (`{"event": "rollout.started" | "rollout.promoted" | "rollout.stopped", ...}`).
///
/// A dry run (or a run over filtered events) decides nothing. What was done is listed on standard
/// error, so the run's document on standard output stays as it was.
enum RecommendRollouts {
    static let autoRollout: Option<String?> = .string(
        "auto-rollout", valueName: "percent",
        help: "Start each newly filed proposal as a rollout to this share of people (such as 10%).")
    static let decide: Option<Bool> = .flag(
        "decide-rollouts",
        help: "Promote running rollouts that are better with no guardrail worse; stop those that are worse.")

    static let options = [autoRollout.spec, decide.spec]

    static func validate(_ values: ParsedValues) throws {
        if let text = values[autoRollout] { _ = try PipelineRollouts.share(text, option: "--auto-rollout") }
    }

    /// What the step did to one rollout.
    struct Action: Sendable {
        var event: String
        var rollout: RolloutRecord
        var reason: String
        var look: ExperimentLook?

        var line: String {
            "rollout #\(rollout.id) (\(rollout.appName) \(rollout.elementType)): \(event.replacingOccurrences(of: "rollout.", with: "")): "
                + reason
        }

        var body: String {
            JSONValue.object([
                ("event", .string(event)),
                ("app", .string(rollout.appName)),
                ("element_type", .string(rollout.elementType)),
                ("rollout_id", .number(JSONNumber(Int(rollout.id)))),
                ("proposal_id", .number(JSONNumber(Int(rollout.proposalID)))),
                ("share", .number(JSONNumber(rollout.share))),
                ("menu_version", .string(rollout.menuVersion)),
                ("base_menu_version", .string(rollout.baseMenuVersion)),
                ("reason", .string(reason)),
                ("look", look?.jsonValue ?? .null),
            ]).jsonText
        }
    }

    /// The step, after the run filed its proposals: one call from `recommend`.
    static func run(_ runs: [NightlyAppRun], dryRun: Bool, values: ParsedValues,
                    context: CommandContext) async throws
    {
        let share = try values[autoRollout].map { try PipelineRollouts.share($0, option: "--auto-rollout") }
        let deciding = values[decide]
        guard !dryRun, share != nil || deciding else { return }
        let filed = runs.flatMap { run in
            run.filings.values.compactMap { filing -> Int64? in if case .filed(let id, _) = filing { id } else { nil } }
        }.sorted()
        let apps = Set(runs.map(\.report.app))
        let actions = try await PipelineDatabase.run(values) { connection in
            var actions: [Action] = []
            let store = RolloutStore()
            if let share {
                for id in filed {
                    do {
                        let rollout = try store.start(proposalID: id, share: share, note: "started by recommend --auto-rollout",
                                                      by: "recommend", on: connection)
                        actions.append(Action(event: "rollout.started", rollout: rollout,
                                              reason: "proposal #\(id) to \(RolloutStore.percentText(share)) of people"))
                    } catch let error as StorageError where error.kind == .invalidArgument {
                        context.console.printError("proposal #\(id) was not rolled out: \(error.message)")
                    }
                }
            }
            guard deciding else { return actions }
            for rollout in try store.list(status: .running, on: connection) where apps.contains(rollout.appName) {
                guard let look = try PipelineRollouts.looks(rollout, on: connection).last else { continue }
                switch look.verdict {
                case .better where !look.guardrailWorse:
                    let promoted = try store.promote(id: rollout.id, note: "recommend: better: \(look.reason)", by: "recommend",
                                                     on: connection).rollout
                    actions.append(Action(event: "rollout.promoted", rollout: promoted, reason: look.reason, look: look))
                case .worse:
                    let stopped = try store.stop(id: rollout.id, note: "recommend: worse: \(look.reason)", by: "recommend",
                                                 on: connection)
                    actions.append(Action(event: "rollout.stopped", rollout: stopped, reason: look.reason, look: look))
                case .sampleRatioMismatch:
                    context.console.printError("rollout #\(rollout.id) (\(rollout.appName) \(rollout.elementType)) left "
                        + "running: \(look.reason)")
                default:
                    break
                }
            }
            return actions
        }
        for action in actions { context.console.printError(action.line) }
        guard let url = values[Menurank.recommendNotifyURL].flatMap(RecommendNotifier.parse), !actions.isEmpty else { return }
        let failed = await RecommendNotifier(url: url).deliver(actions.map { ($0.rollout.id, $0.body) })
        if !failed.isEmpty {
            let list = failed.map { "rollout #\($0.0) (\($0.1))" }.joined(separator: ", ")
            throw CLIError.failure("the rollouts were decided, but --notify-url could not be told of \(list)")
        }
    }
}
