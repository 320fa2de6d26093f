public import JSON
public import Ranking

/// The ranking document of an app: what `menurank rank --format json` prints and what the admin
/// API's `GET /v1/admin/usage` answers with (plus members of its own), built in one place so the
/// two cannot drift.
///
/// Per element type, beside its use and its commands, `undeclared_selections` counts the window's
/// selections of commands the app's manifest does not declare (HIG-1: events the app sends for
/// commands the team never described), and `undeclared_commands` names them; both are null when
/// no manifest has been imported (nothing to compare with).
public enum RankDocument {
    public static func jsonValue(app: String, window: RankingWindow, _ ranked: [ElementTypeUsage],
                                 declared: Set<String>?) -> JSONValue
    {
        document(app: app, window: window, ranked.map { usage in
            var members = elementMembers(usage, undeclared: Self.undeclared(usage, declared: declared))
            members.append(("commands", .array(usage.commands.map { command in
                [
                    "command": .string(command.command),
                    "selections": .number(JSONNumber(command.selections)),
                    "share": .number(JSONNumber(round6(command.share))),
                    "share_low": .number(JSONNumber(round6(command.shareInterval.lower))),
                    "share_high": .number(JSONNumber(round6(command.shareInterval.upper))),
                    "user_days": .number(JSONNumber(command.userDays)),
                    "users": .number(JSONNumber(command.users)),
                    "reach": .number(JSONNumber(round6(command.reach.estimate))),
                    "reach_low": .number(JSONNumber(round6(command.reach.lower))),
                    "reach_high": .number(JSONNumber(round6(command.reach.upper))),
                    "previous_selections": .number(JSONNumber(command.previousSelections)),
                    "trend": trend(command.trend),
                ]
            })))
            return .object(members)
        })
    }

    /// The document of `jsonValue` without each element type's `commands`: the members of each
    /// element type itself, in the same order and form, for an overview of many element types.
    /// `undeclared` gives per element type what `undeclared(_:declared:)` gives from its commands
    /// (nil without a manifest).
    public static func overviewValue(app: String, window: RankingWindow, _ usages: [ElementTypeUsage],
                                     undeclared: (ElementTypeUsage) -> (selections: Int, commands: [String])?) -> JSONValue
    {
        document(app: app, window: window, usages.map { .object(elementMembers($0, undeclared: undeclared($0))) })
    }

    private static func document(app: String, window: RankingWindow, _ elementTypes: [JSONValue]) -> JSONValue {
        [
            "app": .string(app),
            "window": ["from": .string(ReportDate.day(window.firstDay)), "to": .string(ReportDate.day(window.asOf))],
            "element_types": .array(elementTypes),
        ]
    }

    private static func elementMembers(_ usage: ElementTypeUsage, undeclared: (selections: Int, commands: [String])?)
        -> [(key: String, value: JSONValue)]
    {
        [
            ("element_type", .string(usage.elementType)),
            ("selections", .number(JSONNumber(usage.selections))),
            ("users", .number(JSONNumber(usage.users))),
            ("dismissals", .number(JSONNumber(usage.dismissals))),
            ("opens", .number(JSONNumber(usage.opens))),
            ("dismissal_rate", usage.dismissalRate.map { .number(JSONNumber(round6($0))) } ?? .null),
            ("previous_selections", .number(JSONNumber(usage.previousSelections))),
            ("trend", trend(usage.trend)),
            ("undeclared_selections", undeclared.map { .number(JSONNumber($0.selections)) } ?? .null),
            ("undeclared_commands", undeclared.map { .array($0.commands.map(JSONValue.string)) } ?? .null),
        ]
    }

    /// The window's selections of commands outside `declared`, and those commands (in the
    /// ranking's order); nil without a manifest.
    public static func undeclared(_ usage: ElementTypeUsage, declared: Set<String>?)
        -> (selections: Int, commands: [String])?
    {
        guard let declared else { return nil }
        let outside = usage.commands.filter { !declared.contains($0.command) && $0.selections > 0 }
        return (outside.reduce(0) { $0 + $1.selections }, outside.map { $0.command })
    }

    static func trend(_ trend: Trend?) -> JSONValue {
        guard let trend else { return .null }
        return ["previous": .number(JSONNumber(trend.previous)), "current": .number(JSONNumber(trend.current)),
                "percent_change": .number(JSONNumber(round6(trend.percentChange)))]
    }

    /// A figure rounded to six decimals, as every ranking output prints it.
    public static func round6(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
}
