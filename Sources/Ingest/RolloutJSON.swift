public import JSON
import Reports
public import Storage

/// A rollout's facts and decisions as JSON: the same members in `menurank rollouts show --format
/// json` and the admin API's `GET /v1/admin/rollouts[/ID]`.
public enum RolloutJSON {
    public static func facts(_ rollout: RolloutRecord) -> [(key: String, value: JSONValue)] {
        [
            ("id", .number(JSONNumber(Int(rollout.id)))),
            ("app", .string(rollout.appName)),
            ("element_type", .string(rollout.elementType)),
            ("proposal_id", .number(JSONNumber(Int(rollout.proposalID)))),
            ("status", .string(rollout.status.rawValue)),
            ("share", .number(JSONNumber(rollout.share))),
            ("share_since", .string(ReportDate.timestamp(rollout.shareSince))),
            ("started", .string(ReportDate.timestamp(rollout.startedAt))),
            ("ended", rollout.endedAt.map { .string(ReportDate.timestamp($0)) } ?? .null),
            ("old", .object([("layout_version", .number(JSONNumber(rollout.baseLayoutVersion))),
                             ("menu_version", .string(rollout.baseMenuVersion))])),
            ("new", .object([("menu_version", .string(rollout.menuVersion)),
                             ("groups", (try? JSONParser.parse(rollout.layout.jsonText)) ?? .null)])),
        ]
    }

    /// Who decided what, when and why, oldest first.
    public static func decisions(_ decisions: [RolloutDecision]) -> JSONValue {
        .array(decisions.map { decision in
            .object([
                ("action", .string(decision.action.rawValue)),
                ("share", decision.share.map { .number(JSONNumber($0)) } ?? .null),
                ("by", decision.decidedBy.map(JSONValue.string) ?? .null),
                ("note", decision.note.map(JSONValue.string) ?? .null),
                ("at", .string(ReportDate.timestamp(decision.decidedAt))),
            ])
        })
    }
}
