public import JSON

extension RecommendReport {
    /// `{"app", "window": {"from", "to"}, "element_types": [...]}`.
    public var jsonValue: JSONValue {
        [
            "app": .string(app),
            "window": ["from": .string(from), "to": .string(to)],
            "element_types": .array(elementTypes.map { $0.jsonValue }),
        ]
    }

    /// JSON text: compact or pretty.
    public func jsonText(pretty: Bool = false) -> String {
        JSONWriter(style: pretty ? .pretty : .compact).string(jsonValue)
    }

    /// The compact JSON text's bytes (`jsonText()`'s) with `entries` as the compact texts of
    /// `elementTypes`, in order: a caller that has written the documents already (the nightly run,
    /// on all cores, and the documents it filed as they were stored) has each one written once.
    public func compactJSON(entries: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.reduce(64 + app.utf8.count) { $0 + $1.count + 1 })
        out.append(contentsOf: #"{"app":"#.utf8)
        JSONWriter.appendCompact(.string(app), to: &out)
        out.append(contentsOf: #","window":"#.utf8)
        JSONWriter.appendCompact(["from": .string(from), "to": .string(to)], to: &out)
        out.append(contentsOf: #","element_types":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: entry)
        }
        out.append(contentsOf: "]}".utf8)
        return out
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
