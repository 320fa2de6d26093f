public import JSON

extension RecommendReport {
    /// `{"app", "window": {"from", "to"}, "element_types": [...]}`.
    public var jsonValue: JSONValue {
        [
            "app": .string(app),
            "window": ["from": .string(from), "to": .string(to)],
            "element_types": .array(elementTypes.map(\.jsonValue)),
        ]
    }

    /// JSON text: compact or pretty.
    public func jsonText(pretty: Bool = false) -> String {
        JSONWriter(style: pretty ? .pretty : .compact).string(jsonValue)
    }

    /// Reads a report written by `jsonValue`.
    public init(json: JSONValue) throws(ReportError) {
        let object = try ReportJSON.Object(json, path: "$")
        let window = try object.object("window")
        var documents: [ProposalDocument] = []
        for (element, path) in try object.array("element_types") {
            documents.append(try ProposalDocument(json: element, path: path))
        }
        self.init(app: try object.string("app"), from: try window.string("from"), to: try window.string("to"),
                  elementTypes: documents)
    }

    public init(jsonText: String) throws(ReportError) {
        try self.init(json: ReportJSON.parse(jsonText))
    }
}
