public import JSON
import Menus

extension ProposalDocument {
    /// The document in the member order of `menurank recommend --format json` (see the type).
    public var jsonValue: JSONValue {
        [
            "element_type": .string(elementType),
            "selections": JSONValue(integerLiteral: selections),
            "users": JSONValue(integerLiteral: users),
            "dismissals": JSONValue(integerLiteral: dismissals),
            "changed": .bool(changed),
            "proposal_id": proposalID.map { JSONValue(integerLiteral: $0) } ?? .null,
            "current": ["groups": current.jsonValue],
            "proposed": ["groups": proposed.jsonValue],
            "commands": .array(commands.map { $0.jsonValue }),
            "prune": .array(prune.map { $0.jsonValue }),
            "lint": .array(lint.map { $0.jsonValue }),
            "unknown_commands": .array(unknownCommands.map { $0.jsonValue }),
            "scan_depth": [
                "current": ReportJSON.number(scanDepthCurrent, decimals: ReportNumber.scanDepthDecimals),
                "proposed": ReportJSON.number(scanDepthProposed, decimals: ReportNumber.scanDepthDecimals),
            ],
            "time_saved_seconds": ReportJSON.number(timeSavedSeconds, decimals: ReportNumber.secondsDecimals),
            "moves": .array(moves.map { $0.jsonValue }),
            "unpinned": .array(unpinned.map(JSONValue.string)),
            "evidence": evidence.jsonValue,
            "step": step.map(JSONValue.string) ?? .null,
            "ladder": .array(ladder.map { $0.jsonValue }),
        ]
    }

    /// JSON text: compact (one line, for machines and the database) or pretty (for people).
    public func jsonText(pretty: Bool = false) -> String {
        JSONWriter(style: pretty ? .pretty : .compact).string(jsonValue)
    }

    /// Reads a document written by `jsonValue` (a stored proposal). `moves` is derived and not read;
    /// unknown members are ignored. `path` prefixes the paths of errors.
    public init(json: JSONValue, path: String = "$") throws(ReportError) {
        let object = try ReportJSON.Object(json, path: path)
        self.init(
            elementType: try object.string("element_type"),
            selections: try object.int("selections"),
            users: try object.int("users"),
            dismissals: try object.int("dismissals"),
            changed: try object.bool("changed"),
            proposalID: try object.optionalInt("proposal_id"),
            current: try object.object("current").layout("groups"),
            proposed: try object.object("proposed").layout("groups"),
            commands: try object.array("commands").map(CommandEvidence.init(json:path:)),
            prune: try object.array("prune").map(CommandEvidence.init(json:path:)),
            lint: try object.array("lint").map(ReportFinding.init(json:path:)),
            unknownCommands: try object.array("unknown_commands").map(CommandEvidence.init(json:path:)),
            scanDepthCurrent: try object.object("scan_depth").double("current"),
            scanDepthProposed: try object.object("scan_depth").double("proposed"),
            timeSavedSeconds: try object.optionalDouble("time_saved_seconds") ?? 0,
            unpinned: try object.optionalStrings("unpinned") ?? [],
            evidence: try object.has("evidence") ? ProposalEvidence(json: object.member("evidence"), path: path + ".evidence")
                : ProposalEvidence(fallbackCost: 0, displacedShare: 0, secondsCurrent: 0, secondsProposed: 0),
            step: try object.optionalString("step"),
            ladder: try object.has("ladder") ? object.array("ladder").map(LadderRung.init(json:path:)) : [])
    }

    /// Reads a document from JSON text (the database's jsonb as text).
    public init(jsonText: String) throws(ReportError) {
        try self.init(json: ReportJSON.parse(jsonText))
    }
}
