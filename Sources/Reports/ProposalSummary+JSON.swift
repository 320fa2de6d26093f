public import JSON

extension ProposalSummary {
    /// `{"id", "app", "element_type", "status", "created" (RFC 3339, UTC), "changed_items"}`.
    public var jsonValue: JSONValue {
        [
            "id": JSONValue(integerLiteral: id),
            "app": .string(app),
            "element_type": .string(elementType),
            "status": .string(status),
            "created": .string(ReportDate.timestamp(created)),
            "changed_items": JSONValue(integerLiteral: changedItems),
        ]
    }

    /// A list of proposals as a JSON array, compact or pretty.
    public static func jsonText(_ list: [ProposalSummary], pretty: Bool = false) -> String {
        JSONWriter(style: pretty ? .pretty : .compact).string(.array(list.map { $0.jsonValue }))
    }
}
